"""Drawing layers: the player's screen rendered once into a texture, and a layer for cards in
flight.

A software OpenGL renderer (Mesa llvmpipe, as on a Raspberry Pi without a GPU driver and in the
headless tests) pays for every primitive it rasterizes, every frame.  Most of the screen does not
change from one frame to the next, so :class:`CachedLayer` draws its children into a framebuffer
object only when one of them changes, and each frame costs a single textured quad.  Cards being
dealt move every frame, so they fly in :class:`FlyLayer`, above the cache, and join the cached
table when they land.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.graphics import Canvas, ClearBuffers, ClearColor, Color, Fbo, Rectangle
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from ui.terminal.theme import FELT


class CachedLayer(FloatLayout):
    """Children are drawn into an off-screen texture, re-rendered only when they change."""

    def __init__(
        self,
        clear: tuple[float, float, float, float] = FELT,
        stencil: bool = True,
        **kwargs: object,
    ) -> None:
        """``clear`` is the texture's background: the opaque felt for the screen (translucent
        children then blend exactly as on the window); transparent for a card, whose only
        translucent pixels are its black shadow."""
        self.canvas = Canvas()
        with self.canvas:
            self.fbo = Fbo(size=(16, 16), with_stencilbuffer=stencil)
            Color(1, 1, 1, 1)
            self._quad = Rectangle(size=(16, 16))
        with self.fbo:
            ClearColor(*clear)
            ClearBuffers()
        self._quad.texture = self.fbo.texture
        super().__init__(**kwargs)
        self.bind(size=self._resize, pos=self._move)
        self._resize(self, self.size)
        self._move(self, self.pos)

    def add_widget(self, widget: Widget, *args: object, **kwargs: object) -> None:
        canvas = self.canvas
        self.canvas = self.fbo
        try:
            super().add_widget(widget, *args, **kwargs)
        finally:
            self.canvas = canvas

    def remove_widget(self, widget: Widget, *args: object, **kwargs: object) -> None:
        canvas = self.canvas
        self.canvas = self.fbo
        try:
            super().remove_widget(widget, *args, **kwargs)
        finally:
            self.canvas = canvas

    def _resize(self, _w: object, size: list[float]) -> None:
        self.fbo.size = (max(1, int(size[0])), max(1, int(size[1])))
        self._quad.texture = self.fbo.texture
        self._quad.size = size

    def _move(self, _w: object, pos: list[float]) -> None:
        self._quad.pos = pos


class FlyLayer(Widget):
    """Cards in flight, drawn above the cached screen; it takes no touches.

    A card that has landed stays here, parked over its place, until :meth:`settle`: while a
    deal goes on, each card landing in the cached screen would redraw all of it.  The app
    settles the cards when the deal pauses (a decision) or ends.
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.parked: list[Any] = []
        self.on_landed: Callable[[], None] | None = None

    def landed(self, card: Any) -> None:
        """A card finished its flight (called by the card)."""
        self.parked.append(card)
        if self.on_landed is not None:
            self.on_landed()

    @property
    def in_flight(self) -> bool:
        """Whether a card is still moving."""
        return len(self.children) > len(self.parked)

    def settle(self) -> None:
        """Every parked card joins the table (one redraw of the cached screen)."""
        parked, self.parked = self.parked, []
        for card in parked:
            card.land()

    def on_touch_down(self, touch: object) -> bool:
        return False

    def on_touch_move(self, touch: object) -> bool:
        return False

    def on_touch_up(self, touch: object) -> bool:
        return False
