"""A card on the table: face, back or empty slot, with the deal animation (slide and flip)."""

from __future__ import annotations

import math
from functools import lru_cache

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.graphics import (
    ClearBuffers,
    ClearColor,
    Color,
    Fbo,
    PopMatrix,
    PushMatrix,
    Rectangle,
    Scale,
    Translate,
)
from kivy.graphics.texture import Texture
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from ui.terminal.draw import cardface
from ui.terminal.widgets.named import Named

#: seconds a card takes from the shoe to its place
SLIDE_SECONDS = 0.28
#: width / height of a card
CARD_RATIO = 0.7


class CardView(Named, ButtonBehavior, Widget):
    """One card slot.  Setting ``face`` from None to a card deals it: when ``deal`` is set, a
    copy flies in from the shoe (in the app's fly layer) and turns over, then the card shows
    here."""

    face = ObjectProperty(None, allownone=True)
    face_down = BooleanProperty(False)
    icon = StringProperty("")
    marker = StringProperty("")
    selected = BooleanProperty(False)
    flip = NumericProperty(1.0)  # 0: back up, 1: face up (the flip animation runs 0 -> 1)
    deal = BooleanProperty(True)  # animate the next face that arrives
    speed = NumericProperty(1.0)  # animation time scale (tests run fast)
    hidden = BooleanProperty(False)  # the card is still in flight: show the empty slot

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        with self.canvas.before:
            PushMatrix()
            self._move = Translate(0, 0)
            self._scale = Scale(1, 1, 1)
            self._centre_back = Translate(0, 0)
        with self.canvas.after:
            PopMatrix()
        self._back_drawn: bool | None = None
        self._drawn: tuple[object, ...] = ()
        self._placed: tuple[float, ...] = ()
        self._ghost: GhostCard | None = None
        self._redraw_soon = Clock.create_trigger(self._redraw, -1)
        self.bind(pos=self._place, size=self._redraw_soon)
        self.bind(flip=self._on_flip, face=self._on_face, face_down=self._redraw_soon)
        self.bind(icon=self._redraw_soon, marker=self._redraw_soon, selected=self._redraw_soon)
        self.bind(hidden=self._redraw_soon)
        self._redraw()

    def _place(self, *_: object) -> None:
        """Move and turn the card (instructions are only touched when they change: a touched
        instruction redraws the cached layer it is in)."""
        w, h = self.size
        place = (self.x + w / 2, self.y + h / 2, -w / 2, -h / 2)
        turn = abs(math.cos(math.pi * (1 - self.flip)))
        if place != self._placed:
            self._placed = place
            self._move.xy = place[:2]
            self._centre_back.xy = place[2:]
        if turn != self._scale.x:
            self._scale.x = turn

    def _on_flip(self, *_: object) -> None:
        self._place()
        if (self.flip < 0.5) != self._back_drawn:
            self._redraw()

    def _on_face(self, _w: object, value: object) -> None:
        self._drop_ghost()
        fly = _fly_layer()
        if value is not None and self.deal and fly is not None and self.get_root_window():
            self._fly_in(fly, value)
        else:
            self.hidden = False
            self.flip = 1.0
        self._redraw()

    def _fly_in(self, fly: Widget, value: object) -> None:
        window = self.get_root_window()
        ghost = GhostCard((self.width, self.height), value, self.icon, self.selected)
        ghost.pos = (window.width * 0.9 - self.width / 2, window.height)
        target_x, target_y = self.to_window(self.x, self.y)
        margin = ghost.margin
        duration = SLIDE_SECONDS * self.speed
        flight = Animation(x=target_x - margin, y=target_y - margin, d=duration, t="out_cubic")
        turn = Animation(flip=1.0, d=duration * 0.8, t="in_out_sine")
        flight.bind(on_complete=lambda *_: turn.start(ghost))
        turn.bind(on_complete=lambda *_: fly.landed(self))
        self.hidden = True
        self._ghost = ghost
        fly.add_widget(ghost)
        flight.start(ghost)

    def land(self) -> None:
        """The card in flight has been parked in place long enough: show it here."""
        self._drop_ghost()

    def _drop_ghost(self) -> None:
        ghost = self._ghost
        if ghost is not None:
            Animation.cancel_all(ghost)
            if ghost.parent is not None:
                ghost.parent.remove_widget(ghost)
            self._ghost = None
        self.hidden = False

    @property
    def animating(self) -> bool:
        """Whether the card is still on its way."""
        return self._ghost is not None

    def _redraw(self, *_: object) -> None:
        self._place()
        w, h = self.size
        show_back = self.face_down or (self.face is not None and self.flip < 0.5)
        self._back_drawn = self.flip < 0.5
        if self.hidden or (self.face is None and not show_back):
            look: tuple[object, ...] = ("slot", self.marker, self.selected)
        elif show_back:
            look = ("back",)
        else:
            look = ("face", self.face, self.icon, self.selected)
        if w <= 0 or h <= 0:  # not laid out yet (a screen starts at 100x100): nothing to draw
            look = ("none",)
        look = (*look, w, h)
        if look == self._drawn:
            return  # the same picture: leave the canvas alone (a cached layer stays valid)
        self._drawn = look
        self.canvas.clear()
        with self.canvas:
            if look[0] == "none":
                pass
            elif look[0] == "slot":
                cardface.slot(w, h, self.marker, self.selected)
            elif look[0] == "back":
                cardface.back(w, h)
            else:
                if self.selected:
                    cardface.highlight(w, h)
                cardface.face(self.face, w, h, self.icon)


class GhostCard(Widget):
    """A card in flight: its back and its face are painted once into small textures, so moving
    it, turning it over (a quad narrowed about its centre) or leaving it parked over its place
    costs one textured quad a frame.  It holds no framebuffer of its own (each framebuffer
    brings a shader program, which software GL compiles and keeps: about 1 MB a card at
    1920x1080); one shared :class:`_Painter` paints every card."""

    flip = NumericProperty(0.0)  # 0: back up, 1: face up

    def __init__(
        self, size: tuple[float, float], face: object, icon: str = "", selected: bool = False
    ) -> None:
        self.margin = max(4.0, size[0] * 0.06)  # room for the shadow
        outer = (size[0] + 2 * self.margin, size[1] + 2 * self.margin)
        super().__init__(size_hint=(None, None), size=outer)
        pixels = (max(1, int(outer[0])), max(1, int(outer[1])))
        self._back = _back_texture(pixels, size[0], size[1], self.margin)
        self._face = _painter().paint(pixels, size, self.margin, ("face", face, icon, selected))
        with self.canvas:
            PushMatrix()
            self._centre = Translate(0, 0)
            self._scale = Scale(1, 1, 1)
            self._corner = Translate(0, 0)
            Color(1, 1, 1, 1)
            self._quad = Rectangle(size=outer, texture=self._back)
            PopMatrix()
        self.bind(pos=self._place, flip=self._place)
        self._place()

    def _place(self, *_: object) -> None:
        w, h = self.size
        self._centre.xy = (self.x + w / 2, self.y + h / 2)
        self._corner.xy = (-w / 2, -h / 2)
        self._scale.x = abs(math.cos(math.pi * (1 - self.flip)))
        texture = self._back if self.flip < 0.5 else self._face
        if self._quad.texture is not texture:
            self._quad.texture = texture


class _Painter:
    """One framebuffer that paints a card (a :class:`CardView` at the card's size, a margin
    for its shadow, on transparent black) and hands the picture over as a texture of its own."""

    def __init__(self) -> None:
        self.fbo = Fbo(size=(16, 16), with_stencilbuffer=False)
        with self.fbo:
            ClearColor(0.0, 0.0, 0.0, 0.0)
            ClearBuffers()
        self.card = CardView(size_hint=(None, None), deal=False)
        self.fbo.add(self.card.canvas)

    def paint(
        self,
        pixels: tuple[int, int],
        size: tuple[float, float],
        margin: float,
        look: tuple[object, ...],
    ) -> Texture:
        """``look`` is ("back",) or ("face", face, icon, selected)."""
        if tuple(self.fbo.size) != pixels:
            self.fbo.size = pixels
        card = self.card
        card.size = size
        card.pos = (margin, margin)
        if look[0] == "back":
            card.face_down, card.face, card.selected = True, None, False
        else:
            _, face, icon, selected = look
            card.face_down, card.icon, card.selected, card.face = False, icon, selected, face
        card._redraw()
        self.fbo.draw()
        texture = Texture.create(size=pixels, colorfmt="rgba")
        texture.blit_buffer(self.fbo.pixels, colorfmt="rgba", bufferfmt="ubyte")
        return texture


@lru_cache(maxsize=1)
def _painter() -> _Painter:
    return _Painter()


@lru_cache(maxsize=4)
def _back_texture(pixels: tuple[int, int], w: float, h: float, margin: float) -> Texture:
    """A card's back at one size (every card of a size shares it)."""
    return _painter().paint(pixels, (w, h), margin, ("back",))


def _fly_layer() -> Widget | None:
    """The running app's layer for cards in flight (None outside the kiosk app)."""
    from kivy.app import App

    app = App.get_running_app()
    root = getattr(app, "root", None)
    ids = getattr(root, "ids", {})
    fly: Widget | None = ids.get("fly") if ids else None
    return fly


class CardRow(BoxLayout):
    """A row of ``count`` card slots (``cards``, left to right), sized so that ``fit`` cards
    would fill the row (rows of one table keep one card size)."""

    count = NumericProperty(0)
    fit = NumericProperty(0)
    cards = ListProperty([])
    card_height = NumericProperty(0)
    filler = BooleanProperty(True)  # keep the rest of the row free (else later children fill it)
    name_prefix = StringProperty("")  # cards are named "<prefix>:<index>"

    def __init__(self, **kwargs: object) -> None:
        self._filler: list[Widget] = []
        super().__init__(**kwargs)
        self.bind(size=self._size_cards, fit=self._size_cards, spacing=self._size_cards)

    def on_count(self, _w: object, value: int) -> None:
        for old in [*self.cards, *self._filler]:
            self.remove_widget(old)
        self.cards = [
            CardView(size_hint=(None, None), pos_hint={"top": 1}) for _ in range(int(value))
        ]
        self.on_name_prefix(self, self.name_prefix)
        # left to right: the cards, the filler, then any child the layout file adds
        self._filler = [Widget()] if self.filler else []
        for widget in [*self._filler, *reversed(self.cards)]:
            self.add_widget(widget, index=len(self.children))
        self._size_cards()

    def on_name_prefix(self, _w: object, prefix: str) -> None:
        for i, card in enumerate(self.cards):
            card.tk_name = f"{prefix}:{i}" if prefix else ""

    def _size_cards(self, *_: object) -> None:
        n = int(self.fit or self.count) or 1
        gap = float(self.spacing if not isinstance(self.spacing, list) else self.spacing[0])
        height = min(self.height, (self.width - gap * (n - 1)) / n / CARD_RATIO)
        self.card_height = height
        for card in self.cards:
            card.size = (height * CARD_RATIO, height)


class CardGrid(GridLayout):
    """The Stadium array: 3 x 3 card slots, touchable (``cards`` row by row, top left first)."""

    cards = ListProperty([])

    def on_kv_post(self, _base: object) -> None:
        self.cards = [CardView(size_hint=(None, None)) for _ in range(9)]
        for i, card in enumerate(self.cards):
            card.tk_name = f"position:{i}"
            card.bind(on_release=self._touched)
            self.add_widget(card)

    def _touched(self, card: CardView) -> None:
        screen = self.parent
        while screen is not None and not hasattr(screen, "touch_position"):
            screen = screen.parent
        if screen is not None:
            screen.touch_position(card)
