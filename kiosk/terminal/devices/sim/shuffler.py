"""The simulated card-reading shuffler's firmware: a sans-IO state machine.

For each round (``StartRound``) it shuffles a fresh 52-card deck with its own RNG (a real
shuffler's is its own; the simulator's is the operating system's, or ``--seed`` for a
reproducible demo), reports the deck it read (``DeckRead``: the deck check) and presents
three-card packs one at a time: pack 1, then the next each time the controller reports the
dealer took one (``TakePack``).  ``ReadAgain`` presents a pack again (and clears a jam).

Faults, armed from the control channel (``fault NAME``), each for the next pack or shuffle:

=============  ===========================================================================
``misread``    one card of the next pack is reported unreadable (code 255)
``duplicate``  the next pack repeats a card already presented in the round (its own first
               card, for pack 1)
``short-deck`` the next shuffle's deck is one card short (51 read, 51 in the deck)
``jam``        the next pack is not presented: a jam is reported until ``ReadAgain``
``out-of-turn`` the next pack is presented under the following pack's number (and cards)
=============  ===========================================================================

A re-read (``ReadAgain``) presents the pack as it really is: the armed fault was spent on the
first presentation (a short deck stays short: only a void ends that round).
"""

from __future__ import annotations

import random

from google.protobuf.message import DecodeError

from proto.turbokiosk.v1.shuffler_pb2 import (
    DeckRead,
    PackPresented,
    ShufflerCommand,
    ShufflerFault,
    ShufflerReport,
)

PACK_SIZE = 3
UNREADABLE = 255
FAULTS = ("misread", "duplicate", "short-deck", "jam", "out-of-turn")


class ShufflerMachine:
    """A card-reading shuffler that presents three-card packs."""

    def __init__(self, now: int, *, seed: int | None = None) -> None:
        self.rng: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
        self.game = 0
        self.shuffle = 0
        self.deck: list[int] = []
        self.pack = 0  # the pack presented (0: none)
        self.jammed = False
        self.armed: list[str] = []
        self.presented: dict[int, tuple[int, ...]] = {}
        self.commands = 0
        self._out: list[bytes] = []

    # -- the program's interface ----------------------------------------------------------

    def on_link_up(self, new_peer: bool, now: int) -> None:
        pass

    def on_link_down(self, now: int) -> None:
        pass

    def tick(self, now: int) -> None:
        pass

    def next_deadline(self) -> int | None:
        return None

    def take_outgoing(self) -> list[bytes]:
        out, self._out = self._out, []
        return out

    def on_command(self, payload: bytes, now: int) -> None:
        try:
            cmd = ShufflerCommand.FromString(payload)
        except DecodeError:
            return
        self.commands += 1
        kind = cmd.WhichOneof("body")
        if kind == "start_round":
            self._start(cmd.start_round.game_number, max(1, cmd.start_round.next_pack))
        elif kind == "take_pack" and cmd.take_pack.game_number == self.game:
            if cmd.take_pack.pack == self.pack:
                self._present(self.pack + 1)
        elif kind == "read_again" and cmd.read_again.game_number == self.game:
            self.jammed = False
            self._present(cmd.read_again.pack, reread=True)
        elif kind == "end_round" and cmd.end_round.game_number == self.game:
            self.pack = 0

    def control(self, words: list[str], now: int) -> str:
        match words:
            case ["fault", name] if name in FAULTS:
                self.armed.append(name)
                return f"ok {name} armed"
            case ["fault", *_]:
                return "error fault is one of " + ", ".join(FAULTS)
            case ["status"]:
                return (
                    f"ok game {self.game} shuffle {self.shuffle} pack {self.pack} "
                    f"deck {len(self.deck)} jammed {int(self.jammed)} armed {','.join(self.armed)}"
                )
        return "error unknown command (fault NAME, status)"

    # -- the mechanism ----------------------------------------------------------------------

    def _start(self, game: int, next_pack: int) -> None:
        if game != self.game or not self.deck:
            self.game = game
            self.shuffle += 1
            self.deck = list(range(52))
            self.rng.shuffle(self.deck)
            if self._spend("short-deck"):
                self.deck.pop()
            self.presented = {}
        self._send(
            ShufflerReport(
                deck_read=DeckRead(game_number=game, shuffle=self.shuffle, cards=self.deck)
            )
        )
        self._present(next_pack)

    def _spend(self, fault: str) -> bool:
        if fault in self.armed:
            self.armed.remove(fault)
            return True
        return False

    def _cards_of(self, pack: int) -> list[int]:
        start = (pack - 1) * PACK_SIZE
        return self.deck[start : start + PACK_SIZE]

    def _present(self, pack: int, *, reread: bool = False) -> None:
        """Present ``pack`` (a re-read presents it as it is: no armed fault is spent)."""
        self.pack = pack
        if self.jammed or (not reread and self._spend("jam")):
            self.jammed = True
            self._fault(pack, ShufflerFault.KIND_JAM, "cards jammed in the elevator")
            return
        cards = self._cards_of(pack)
        if len(cards) < PACK_SIZE:
            self._fault(pack, ShufflerFault.KIND_EMPTY, f"the deck ran out at pack {pack}")
            return
        number = pack
        if reread:
            self.presented[pack] = tuple(cards)
        elif self._spend("out-of-turn") and len(self._cards_of(pack + 1)) == PACK_SIZE:
            number, cards = pack + 1, self._cards_of(pack + 1)
        elif self._spend("misread"):
            cards = [*cards[:1], UNREADABLE, *cards[2:]]
        elif self._spend("duplicate"):
            earlier = [x for p, got in sorted(self.presented.items()) if p < pack for x in got]
            cards = [cards[0], earlier[0] if earlier else cards[0], cards[2]]
        else:
            self.presented[pack] = tuple(cards)
        self._send(
            ShufflerReport(
                pack_presented=PackPresented(
                    game_number=self.game, shuffle=self.shuffle, pack=number, cards=cards
                )
            )
        )

    def _fault(self, pack: int, kind: ShufflerFault.Kind, detail: str) -> None:
        self._send(
            ShufflerReport(
                fault=ShufflerFault(game_number=self.game, pack=pack, kind=kind, detail=detail)
            )
        )

    def _send(self, report: ShufflerReport) -> None:
        self._out.append(report.SerializeToString())
