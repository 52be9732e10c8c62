"""Complete game cycles through the runtime: money in, wagers, cards, decisions, money out."""

from kiosk.kernel import cards
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.records import Handpay
from kiosk.terminal.core.state import Lockup, Phase


def test_turbo_football_raise_then_win(rig):
    rt = rig.runtime
    rig.insert(20)
    assert rt.state.credits == [2000]
    rt.execute(c.SelectEdition("turbo-football"))
    rt.execute(c.PlaceWager("first_down", 500))
    assert rt.state.phase is Phase.WAGERING and rt.state.credits == [2000]
    rig.script = ["2h", "3h", "4h", "As", "Ks", "Qs", "2s", "3d", "4d"]
    rt.execute(c.Deal())
    assert rt.state.phase is Phase.DECISION
    assert rt.state.credits == [1500]
    assert rt.state.round.first == list(cards.cards("2h 3h 4h"))
    offer = rt.state.round.offers[0].decision
    assert offer.take == "raise" and offer.extra_wager == 500
    rt.execute(c.Decide("raise"))
    # 13 icons in 9 cards: First Down and the raise each pay 1 to 1
    assert rt.state.phase is Phase.RESULT
    assert rt.state.credits == [1000 + 1000 + 1000]
    m = rt.state.lifetime
    assert (m["coin_in"], m["coin_out"], m["games_won"]) == (1000, 2000, 1)
    assert m["wager_in.raise"] == 500 and m["wager_out.raise"] == 1000
    assert rt.core.audit_credits() is None


def test_turbo_football_community_six_icons_pays_three_to_two_without_offer(rig):
    rt = rig.runtime
    rig.insert(20)
    rt.execute(c.SelectEdition("turbo-football"))
    rt.execute(c.PlaceWager("first_down", 500))
    rig.script = ["As", "Ks", "2h", "3h", "4h", "5h", "6h", "7h", "8h"]
    rt.execute(c.Deal())
    assert rt.state.phase is Phase.RESULT  # no raise when the community holds more than 5 icons
    assert rt.state.round.offers == {}
    assert rt.state.credits == [2000 - 500 + 500 + 750]


def test_stadium_timer_runs_out_and_folds(make_rig):
    rig = make_rig(TerminalConfig(decision_seconds=20))  # the operator set a timer
    rt = rig.runtime
    rig.insert(20)
    rt.execute(c.SelectEdition("stadium-3cp"))
    rt.execute(c.SelectPositions((0, 4, 8)))
    rt.execute(c.PlaceWager("ante", 500))
    rig.script = ["2h", "7d", "9c", "3s", "4h", "Jd", "5c", "8h", "Kd", "Ah", "Kh", "Qh"]
    rt.execute(c.Deal())
    assert rt.state.phase is Phase.DECISION
    assert rt.pump() == []  # the timer has not run out
    rig.clock.advance(rt.state.config.decision_seconds)
    events = rt.pump()
    made = [x for x in events if isinstance(x, e.DecisionMade)]
    assert made and made[0].choice == "fold" and made[0].automatic
    assert rt.state.phase is Phase.RESULT
    assert rt.state.credits == [1500]
    recall = rt.journal.recall(1)[0]
    assert recall["automatic"] == {"0": True} and recall["choices"] == {"0": "fold"}
    assert recall["second_shared"] == list(cards.cards("Ah Kh Qh"))


def test_stadium_play_against_a_dealer_who_does_not_qualify(rig):
    rt = rig.runtime
    rig.insert(20)
    rt.execute(c.SelectEdition("stadium-3cp"))
    rt.execute(c.SelectPositions((0, 1, 2)))
    rt.execute(c.PlaceWager("ante", 500))
    # player: a pair of aces; dealer 2-5-7 offsuit does not qualify
    rig.script = ["Ah", "Ad", "9c", "3s", "4h", "Jd", "6c", "8h", "Kd", "2h", "5d", "7c"]
    rt.execute(c.Deal())
    rt.execute(c.Decide("play"))
    # ante pays 1 to 1, play pushes
    assert rt.state.credits == [2000 - 1000 + 1000 + 500]


def test_repeat_wager_places_the_last_round_again(rig):
    rt = rig.runtime
    rig.insert(50)
    rt.execute(c.SelectEdition("icon-v2"))
    rt.execute(c.PlaceWager("bet_a", 200))
    rt.execute(c.PlaceWager("bet_b", 100))
    rt.execute(c.Deal())
    while rt.state.phase is Phase.DECISION:
        rt.execute(c.Decide("no_raise"))
    rt.execute(c.RepeatWagers())
    assert rt.state.pending_wagers == {0: {"bet_a": 200, "bet_b": 100}}


def test_two_seats_share_the_community_and_get_their_own_six_cards(make_rig):
    r = make_rig(TerminalConfig(seats=2))
    rt = r.runtime
    for seat in (0, 1):
        assert r.validator.insert(2000, seat=seat)
        rt.pump()
    rt.execute(c.SelectEdition("turbo-football"))
    rt.execute(c.PlaceWager("first_down", 100, seat=0))
    rt.execute(c.PlaceWager("first_down", 200, seat=1))
    rt.execute(c.Deal())
    while rt.state.phase is Phase.DECISION:
        for seat in (0, 1):
            if seat in rt.state.round.offers and seat not in rt.state.round.choices:
                rt.execute(c.Decide("no_raise", seat=seat))
    rnd = rt.state.round
    dealt = rnd.first + rnd.seat_cards[0] + rnd.seat_cards[1]
    assert len(rnd.seat_cards[0]) == len(rnd.seat_cards[1]) == 6
    assert len(set(dealt)) == 15
    assert [s.stake for s in rnd.settlement] == [100, 200]
    assert rt.core.audit_credits() is None


def test_cash_out_prints_a_voucher_and_empties_the_meter(rig):
    rt = rig.runtime
    rig.insert(20)
    rt.cash_out()
    assert rt.state.phase is Phase.CASHOUT and rt.state.credits == [2000]
    rt.pump()
    assert rt.state.credits == [0]
    ((number, voucher),) = rig.printer.printed().items()
    assert len(number) == 18 and voucher["value"] == 2000
    assert rt.state.lifetime["tickets_out"] == 2000


def test_printer_failing_mid_print_keeps_the_credits_then_handpay(rig):
    rt = rig.runtime
    rig.insert(20)
    rig.printer.fault = "jam"
    rt.execute(c.CashOut(validation_number="1" * 18, printer_ready=True))
    rt.pump()
    assert rt.state.credits == [2000] and rig.printer.printed() == {}
    rt.cash_out()  # the printer cannot print: an attendant pays by hand
    assert rt.state.handpay == Handpay(seat=0, value=2000, kind="cancelled_credits", game_number=0)
    rt.execute(c.AttendantReset(by="attendant 7"))
    assert rt.state.credits == [0]
    assert rt.state.lifetime["handpaid_cancelled_credits"] == 2000
    assert rt.core.audit_credits() is None


def test_cash_out_during_a_printer_tilt_becomes_a_handpay(rig):
    rt = rig.runtime
    rig.insert(20)
    rig.printer.paper = False
    rt.execute(c.RaiseTilt("paper_out", "printer out of paper"))
    rt.cash_out()
    assert rt.state.handpay.kind == "cancelled_credits"
    assert rt.state.handpay.value == 2000
    rt.execute(c.AttendantReset(by="attendant"))
    assert rt.state.credits == [0]


def test_jackpot_at_the_handpay_limit_locks_for_an_attendant(make_rig):
    r = make_rig(TerminalConfig(handpay_limit=1500))
    rt = r.runtime
    r.insert(20)
    rt.execute(c.SelectEdition("turbo-football"))
    rt.execute(c.PlaceWager("first_down", 500))
    rt.execute(c.PlaceWager("long_pass", 500))
    r.script = ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s", "6s"]
    rt.execute(c.Deal())
    assert Lockup.HANDPAY in rt.state.lockups()
    won = rt.state.handpay.value
    assert won >= 1500 and rt.state.credits == [1000]
    rt.execute(c.AttendantReset(by="attendant"))
    assert rt.state.lifetime["handpaid_jackpots"] == won
    assert rt.state.credits == [1000]
    assert rt.core.audit_credits() is None
