"""Each edition's pay limits, exact from its pay tables, for every game family (sans-IO).

The host's check (:func:`kiosk.host.accounting.plausibility.game_problem`) must pass every game the
rules can settle, with every pay table an operator may choose, and refuse one cent more than the
best any table pays on a spot.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from kiosk.host.accounting.db import Message
from kiosk.host.accounting.plausibility import PayBook, game_problem, screen
from kiosk.kernel.games import nine_card_bonus, registry, stadium_paytables, turbo
from kiosk.kernel.games.base import SeatBet, pay
from kiosk.kernel.games.paytable import PATH_VARIABLE, table_names
from kiosk.kernel.games.turbo_edition import load_edition

BOOK = PayBook()
STAKES = (1, 3, 5, 7, 100, 2_500)  # odd stakes: the breakage of 3:2 and the like


def _body(edition: str, spots: list[tuple[str, int, int]]) -> dict[str, Any]:
    return {
        "game_number": 1,
        "edition": edition,
        "seats": [
            {
                "seat": 0,
                "stake_cents": sum(s for _, s, _ in spots),
                "paid_cents": sum(p for _, _, p in spots),
                "handpay": False,
                "spots": [
                    {"spot": n, "stake_cents": s, "paid_cents": p, "outcome": ""}
                    for n, s, p in spots
                ],
            }
        ],
    }


def _turbo_odds(edition_id: str) -> dict[str, list[Fraction]]:
    """Every odds any table of each Turbo spot can pay, read from the data."""
    ed = load_edition(edition_id)
    odds = {w.id: [t.odds for table in w.paytables for t in table.tiers] for w in ed.wagers}
    odds[turbo.RAISE] = [t.odds for t in ed.raise_rule.paytable.tiers]
    bonus = [nine_card_bonus.load_table(n) for n in nine_card_bonus.available()]
    odds[nine_card_bonus.KIND] = [
        Fraction(p)
        for t in bonus
        for p in (*t.pays, t.straight_flush_8 or 1, t.straight_flush_9 or 1)
    ]
    return odds


@pytest.mark.parametrize("edition", turbo.edition_ids())
def test_every_turbo_tier_passes_and_a_cent_over_the_best_does_not(edition: str) -> None:
    for spot, all_odds in _turbo_odds(edition).items():
        for odds in all_odds:
            for stake in STAKES:
                assert game_problem(_body(edition, [(spot, stake, pay(stake, odds))]), BOOK) is None
        for stake in STAKES:
            over = pay(stake, max(all_odds)) + 1
            problem = game_problem(_body(edition, [(spot, stake, over)]), BOOK)
            assert problem is not None and f"{spot} paid {over} cents" in problem


def test_the_nine_card_bonus_limit_is_the_library_s_best_straight_flush() -> None:
    limits = registry.pay_limits("turbo-football")
    assert limits.spots["nine_card_bonus"].odds == 500_000  # 2-10-50-200-1000-5000-sf-...-500000
    assert limits.spots["first_down"].odds == Fraction(3, 2)
    assert limits.most_odds == 500_000


def test_stadium_every_table_passes_and_a_cent_over_the_best_does_not() -> None:
    edition = "stadium-3cp"
    for wager in stadium_paytables.WAGERS:
        tables = [
            stadium_paytables.load_table(wager, n)
            for n in table_names(stadium_paytables.kind(wager))
        ]
        best = max(o for t in tables for o in t.pays.values())
        spots = {
            "ante_play": ["ante_bonus"],
            "pairs_plus": ["pairs_plus", *(f"pairs_plus_{line}" for line in ("row_1", "col_3"))],
            "six_card_bonus": ["six_card_bonus", "six_card_bonus_row_2"],
        }[wager]
        for spot in spots:
            for stake in STAKES:
                if spot == "ante_bonus":  # stake 0, paid on the ante (which pays 1:1 itself)
                    fair = [("ante", stake, 2 * stake), ("play", stake, 2 * stake)]
                    ok = [*fair, (spot, 0, pay(stake, best) - stake)]
                    over = [*fair, (spot, 0, pay(stake, best) - stake + 1)]
                else:
                    ok = [("ante", stake, 0), (spot, stake, pay(stake, best))]
                    over = [("ante", stake, 0), (spot, stake, pay(stake, best) + 1)]
                assert game_problem(_body(edition, ok), BOOK) is None
                problem = game_problem(_body(edition, over), BOOK)
                assert problem is not None and f"{spot} paid" in problem
    # the ante and play pay even money at most
    assert game_problem(_body(edition, [("ante", 100, 200), ("play", 100, 200)]), BOOK) is None
    assert game_problem(_body(edition, [("ante", 100, 201)]), BOOK) is not None


def _turbo_round(rules: Any, rng: random.Random) -> list[tuple[str, int, int]]:
    bet = SeatBet({s.id: rng.choice(STAKES) for s in rules.spots})
    deck = rng.sample(range(52), 9)
    first, seat = tuple(deck[:3]), tuple(deck[3:])
    offer = rules.offer(bet, first)
    choice = rng.choice(offer.choices) if offer is not None else None
    result = rules.settle(bet, first, choice, seat, ())
    return [(r.spot, r.stake, r.paid) for r in result.results]


def _stadium_round(rules: Any, rng: random.Random) -> list[tuple[str, int, int]]:
    bet = SeatBet({s.id: rng.choice(STAKES) for s in rules.spots}, tuple(rng.sample(range(9), 3)))
    deck = rng.sample(range(52), 12)
    choice = rng.choice(("play", "fold"))
    result = rules.settle(bet, tuple(deck[:9]), choice, (), tuple(deck[9:]))
    return [(r.spot, r.stake, r.paid) for r in result.results]


@pytest.mark.parametrize("edition", registry.edition_ids())
def test_games_the_rules_settle_are_plausible_with_any_pay_table(edition: str) -> None:
    rng = random.Random(edition)
    family = registry.family_of(edition)
    choices = family.paytable_choices(edition)
    for _ in range(300):
        tables = {c.wager: rng.choice(c.tables) for c in choices}
        rules = registry.load_game(edition, tables)
        play = _stadium_round if family.id == "stadium" else _turbo_round
        spots = play(rules, rng)
        assert game_problem(_body(edition, spots), BOOK) is None, (tables, spots)


def test_a_seat_must_add_up_and_name_known_spots_of_a_known_edition() -> None:
    body = _body("turbo-football", [("first_down", 100, 250)])
    body["seats"][0]["paid_cents"] = 251  # more than its spots
    assert "not its spots'" in str(game_problem(body, BOOK))
    no_spots = _body("turbo-football", [])
    no_spots["seats"][0]["paid_cents"] = 5
    assert "without naming its wager spots" in str(game_problem(no_spots, BOOK))
    assert game_problem(_body("turbo-football", []), BOOK) is None  # nothing paid, nothing owed
    twice = _body("turbo-football", [("first_down", 100, 0), ("first_down", 100, 250)])
    assert "named twice" in str(game_problem(twice, BOOK))
    unknown = _body("turbo-football", [("pairs_plus", 100, 200)])
    assert "no wager spot 'pairs_plus'" in str(game_problem(unknown, BOOK))
    assert "knows no pay tables of edition 'turbo-curling'" in str(
        game_problem(_body("turbo-curling", [("td", 1, 1)]), BOOK)
    )


def test_screen_turns_only_implausible_games_into_refused_messages() -> None:
    fair = Message("T:1:1:0", 1, 1, "game_played", _body("icon-v2", [("bet_a", 10, 20)]))
    wild = Message("T:1:2:0", 2, 1, "game_played", _body("icon-v2", [("bet_a", 10, 21)]))
    door = Message("T:1:3:0", 3, 1, "door", {"door": "main", "open": True})
    out = screen([fair, wild, door], BOOK)
    assert out[0] is fair and out[2] is door
    assert out[1].kind == "refused" and out[1].message_id == wild.message_id
    assert out[1].body["kind"] == "game_played" and out[1].body["alarm"] == "implausible_game"
    assert out[1].body["body"] == wild.body


@pytest.mark.bench
def test_the_screen_costs_little_beside_decoding_the_batch(benchmark: Any) -> None:
    """Per report, the in-memory checks (the rate limiter and the pay limits of every game)
    against what the servicer already does with each batch (turning its messages into plain
    values), measured in the same run: the ratio is printed and kept in extra_info."""
    import time as clock

    from kiosk.host.accounting.rate_limit import RateLimiter, RateLimits
    from kiosk.terminal.hostlink import messages as wire
    from tests.host.load import batch

    request = batch("TK-A", 0, 216)  # the link's largest batch: two games to each note
    limiter = RateLimiter(RateLimits(messages_per_second=1e6, burst=10_000_000))

    def decode() -> list[Message]:
        out = []
        for msg in request.messages:
            kind, body = wire.received(msg)
            out.append(Message(msg.message_id, msg.journal_seq, msg.at_ms, kind, body))
        return out

    decoded = decode()

    def checks() -> list[Message]:
        limiter.admit("TK-A", len(decoded))
        return screen(decoded, BOOK)

    assert all(m.kind != "refused" for m in checks())
    rounds = 200
    start = clock.perf_counter()
    for _ in range(rounds):
        decode()
    base = (clock.perf_counter() - start) / rounds
    benchmark.pedantic(checks, rounds=rounds, iterations=1)
    start = clock.perf_counter()
    for _ in range(rounds):
        checks()
    cost = (clock.perf_counter() - start) / rounds
    ratio = cost / base
    benchmark.extra_info.update(decode_ms=base * 1000, checks_ms=cost * 1000, ratio=ratio)
    print(
        f"\nper 216-message report: decode {base * 1000:.3f} ms, checks {cost * 1000:.3f} ms,"
        f" ratio {ratio:.3f}"
    )


def test_the_operator_s_tables_count_and_a_broken_one_is_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host reads the operator's directories as the terminals do; a file no terminal could
    load (refused by the same checks) does not take the edition's limits away."""
    tables = tmp_path / "nine_card_bonus"
    tables.mkdir()
    packaged = "2-10-50-200-1000-5000-sf-10000-500000"
    source = Path(nine_card_bonus.__file__).parent / "paytables/nine_card_bonus"
    richer = (source / f"{packaged}.toml").read_text().replace(packaged, "house-sf9")
    (tables / "house-sf9.toml").write_text(richer.replace("500000", "700000"))
    (tables / "broken.toml").write_text("name = 'broken'\n[pays]\n4 = -1\n")
    monkeypatch.setenv(PATH_VARIABLE, str(tmp_path))
    limits = registry.pay_limits("turbo-football")
    assert limits.spots["nine_card_bonus"].odds == 700_000
    assert limits.spots["first_down"].odds == Fraction(3, 2)
