"""``turbokiosk play`` in-process: scripted cards, a clock the test moves, exact narration."""

from __future__ import annotations

from kiosk.terminal.core.state import Phase, RoundState
from kiosk.terminal.store.journal import Journal
from kiosk.terminal.textui.show import round_lines
from rng import RngFailure
from tests.helpers.play_session import Player

TURBO_RAISE = "2h 3d 4c As Ks Qs Js 9s 8s"  # 0 icons offered the Double; then 20 icons
STADIUM_TRIPS = "As Kd 2c 3h Ah 4d 5s 6c Ad Qs 7h 2d"  # array, then the dealer


def test_turbo_game_card_by_card_with_the_raise(player: Player) -> None:
    player.script = TURBO_RAISE
    assert player.say("bill 20") == "$20.00 note stacked: credits $20.00."
    player.say("bet first_down 5", "bet td 1", "bet nine_card_bonus 1")
    dealt = player.say("deal")
    assert dealt.splitlines() == [
        "Game 1  Turbo Football (turbo-football)",
        "  wagers taken: First Down $5.00, TD $1.00, 9 Card Bonus $1.00 (total $7.00)",
        "  Community: 2h 3d 4c  (0 footballs)",
        "  Double offered for $5.00: raise or noraise (default noraise)",
        "  decide by " + dealt.splitlines()[-1].split("decide by ")[1],
    ]
    assert dealt.endswith("(20 s left)")
    assert player.say("raise").splitlines() == [
        "  Decision: chose raise (+$5.00)",
        "  Own cards: As Ks Qs Js 9s 8s  (9 cards: 20 footballs)",
        "  First Down    stake     $5.00  paid    $10.00  6+ footballs in 9 cards (1:1)",
        "  Double        stake     $5.00  paid    $10.00  6+ footballs in 9 cards (1:1)",
        "  TD            stake     $1.00  paid    $11.00  Super TD (14+ footballs) (10:1)",
        "  9 Card Bonus  stake     $1.00  paid    $41.00  6 suited cards (40:1)",
        "  Total: stake $12.00, paid $72.00, net +$60.00",
        "  Credits $80.00.",
    ]
    assert player.runtime.state.credits == [8000]


def test_turbo_without_the_raise_says_why(player: Player) -> None:
    player.script = "As Ks Qs 2h 3h 4h 5h 6h 7h"  # 12 icons in the community
    out = player.say("bill 20", "bet first_down 5", "deal")
    assert "  Community: As Ks Qs  (12 footballs)" in out
    assert "  No Double: it is offered on 5 footballs or fewer." in out
    assert "6+ footballs in the 3 community cards (3:2)" in out


def test_stadium_game_shows_the_array_the_hand_and_the_dealer(player: Player) -> None:
    player.script = STADIUM_TRIPS
    player.say("bill 20", "game stadium-3cp")
    assert player.say("positions 0 5 9").startswith("? usage: positions A B C with locations 1..9")
    player.say("positions 1 5 9", "bet ante 5", "bet pairs_plus 1", "bet pairs_plus_row_1 1")
    dealt = player.say("deal").splitlines()
    assert dealt[2:8] == [
        "  Array (locations 1-9 row by row; [ ] = your hand):",
        "    [As]  Kd   2c",
        "     3h  [Ah]  4d",
        "     5s   6c  [Ad]",
        "  Hand (locations 1 5 9): As Ah Ad  Three of a kind",
        "  Play offered for $5.00: play or fold (default fold)",
    ]
    assert player.say("play").splitlines() == [
        "  Decision: chose play (+$5.00)",
        "  Dealer: Qs 7h 2d  High card (qualifies)",
        "  Ante              stake     $5.00  paid    $10.00  Win (1:1)",
        "  Play              stake     $5.00  paid    $10.00  Win (1:1)",
        "  Ante bonus        stake     $0.00  paid    $20.00  Ante bonus: Three of a kind (4:1)",
        "  Pairs Plus        stake     $1.00  paid    $31.00  Three of a kind (30:1)",
        "  Pairs Plus Row 1  stake     $1.00  paid     $0.00  Lose (High card)",
        "  Total: stake $12.00, paid $71.00, net +$59.00",
        "  Credits $79.00.",
    ]


def test_the_timer_takes_the_default_on_the_next_line_and_recall_flags_it(
    player: Player,
) -> None:
    player.script = STADIUM_TRIPS
    player.say("bill 20", "game stadium-3cp", "positions 1 5 9", "bet ante 5", "deal")
    player.clock.advance(19)
    assert "AUTOMATIC" not in player.say("status")
    player.clock.advance(2)
    out = player.say("play")  # typed too late: the timer has already folded
    assert "  Decision: chose fold  AUTOMATIC: the timer ran out" in out
    assert "! there is no decision to make: the round is over" in out
    (record,) = Journal(player.data_dir, readonly=True).recall(1)
    assert record["automatic"] == {"0": True}
    assert "      chose fold  AUTOMATIC: the timer ran out" in round_lines(
        RoundState.from_dict(record)
    )


def test_illegal_commands_print_the_refusal_and_change_nothing(player: Player) -> None:
    player.say("bill 20", "bet first_down 5")
    head = player.runtime.journal.head()
    pending = dict(player.runtime.state.pending_wagers[0])
    assert player.say("bet first_down 0.10") == ("! a wager is a whole number of credits of $0.25")
    assert player.say("bet first_down 100") == "! first_down: the most on one spot is $100.00"
    assert player.say("raise") == "! there is no decision to make: deal first"
    assert player.say("positions 1 2 3") == "? Turbo Football has no positions to choose"
    assert player.say("bet ante 5").startswith("? no wager spot 'ante' in Turbo Football")
    assert player.say("game stadium-3cp") == (
        "! your wagers are on this game: deal, or take them back with 'clear', before "
        "choosing another game"
    )
    assert player.say("bill twenty").startswith("? not an amount in dollars")
    assert player.say("dance").startswith("? unknown command 'dance'")
    assert player.runtime.journal.head() == head
    assert player.runtime.state.pending_wagers[0] == pending


def test_lockups_stop_play_until_the_attendant(player: Player) -> None:
    player.say("bill 20")
    assert player.say("door open") == "main door opened."
    assert player.say("bet first_down 5") == (
        "! not now: the terminal is locked (door open); 'status' says why"
    )
    assert "note returned: terminal locked: door_open" in player.say("bill 5")
    player.say("door close")
    assert player.say("printer out") == "Printer: not ready."
    out = player.say("cashout")
    assert "HANDPAY $20.00 (cancelled credits): call an attendant (type 'attendant')." in out
    assert "LOCKED: handpay" in player.say("status")
    assert player.say("attendant") == "Handpay $20.00 paid by attendant. Credits $0.00."
    assert player.say("attendant") == "Nothing for an attendant to do."
    assert player.runtime.state.lockups() == []


def test_cash_out_prints_a_voucher(player: Player) -> None:
    player.say("bill 50")
    out = player.say("cashout").splitlines()
    assert out[0] == "Printing a voucher for $50.00..."
    assert out[1].startswith("Voucher printed: $50.00, validation number ")
    assert out[1].endswith(". Credits $0.00.")
    assert list(player.terminal.simulated.printer.printed()) == [out[1].split()[-3].rstrip(".")]


def test_help_lists_the_commands_and_the_pays_of_the_game(player: Player) -> None:
    out = player.say("help")
    assert "  bill DOLLARS" in out
    assert "Cards of spades carry footballs: 2 3 4 5 = 1, 6 7 8 9 T = 2, J Q K A = 4." in out
    assert "Super TD (14+ footballs)" in out
    assert "Double: offered when the community holds at most 5 footballs" in out
    out = player.say("game stadium-3cp", "help")
    assert "Pairs Plus on your hand: Pair 1:1, Flush 4:1, Straight 6:1" in out
    assert all(len(line) <= 100 for line in out.splitlines())


def test_game_lists_and_selects_editions(player: Player) -> None:
    listing = player.say("game").splitlines()
    assert listing[0] == " * Turbo Football (turbo-football)"
    assert "   Stadium Three Card Poker (stadium-3cp)" in listing
    assert (
        player.say("game nope") == "! there is no game 'nope'; 'game' lists this terminal's games"
    )


def test_a_round_interrupted_by_quitting_resumes_in_the_next_session(player: Player) -> None:
    player.script = STADIUM_TRIPS
    player.say("bill 20", "game stadium-3cp", "positions 1 5 9", "bet ante 5", "deal")
    player.close()
    again = Player(player.data_dir)
    shown = again.start("turbo-football")  # asked for, but the Stadium round comes first
    assert again.runtime.state.phase is Phase.DECISION
    assert "! finish this round before choosing another game" in shown
    assert "  Play offered for $5.00: play or fold (default fold)" in shown
    assert "decide by" in shown
    again.script = "Qs 7h 2d"
    assert "  Dealer: Qs 7h 2d  High card (qualifies)" in again.say("play")
    again.close()


class DealsOnce:
    """Decks whose generator fails after the first round's deck (every card of a round is drawn
    at its first deal and sealed: the next round's deck is the next draw)."""

    def __init__(self) -> None:
        self.decks = 0

    def __call__(self, excluded: frozenset[int]) -> DealsOnce:
        self.decks += 1
        self._cards = [x for x in range(52) if x not in excluded]
        return self

    def deal(self, n: int) -> tuple[int, ...]:
        if self.decks > 1:
            raise RngFailure("continuous health test failed")
        out, self._cards = tuple(self._cards[:n]), self._cards[n:]
        return out


def test_a_generator_failing_at_a_deal_is_shown_and_the_session_goes_on(
    player: Player,
) -> None:
    player.runtime.deck_factory = DealsOnce()
    player.say("bill 20", "game stadium-3cp", "positions 1 5 9", "bet ante 5", "deal")
    player.clock.advance(21)  # the timer folds: the dealer's cards were drawn at the deal
    assert "Decision: chose fold  AUTOMATIC: the timer ran out" in player.say("status")
    head = player.runtime.journal.head()
    out = player.say("positions 1 5 9", "bet ante 5", "deal")
    assert "! the RNG failed: continuous health test failed" in out
    assert player.runtime.journal.head() == head  # nothing of the failed step was kept
    assert player.runtime.state.phase is not Phase.DECISION
