"""The vectorised simulator against the certified scorer, round by round, and its runs."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from kiosk.kernel import scoring
from kiosk.kernel.analysis import fast_sim, turbo_par
from kiosk.kernel.analysis.fast_sim import RunSums
from kiosk.kernel.analysis.table_math import STADIUM, TABLE
from kiosk.kernel.games import nine_card_bonus, stadium, turbo
from kiosk.kernel.games.base import SeatBet
from kiosk.kernel.games.paytable import table_names
from kiosk.kernel.games.stadium_advice import q64_play
from kiosk.kernel.games.stadium_paytables import DEFAULTS, WAGERS, kind
from tests.analysis.stadium_pars import default_pars

ROUNDS = 150


def _turbo_configs() -> list[tuple[str, dict[str, str]]]:
    """Every edition with its defaults, then each other table of each wager in turn."""
    configs: list[tuple[str, dict[str, str]]] = []
    for edition in turbo.edition_ids():
        configs.append((edition, {}))
        for choice in turbo.FAMILY.paytable_choices(edition):
            for table in choice.tables:
                if table != choice.default:
                    configs.append((edition, {choice.wager: table}))
    return configs


def _reference_turbo(
    rules: turbo.TurboRules, scale: int, community: tuple[int, ...], seat: tuple[int, ...]
) -> dict[str, int]:
    bet = SeatBet({spot.id: scale for spot in rules.spots})
    offer = rules.offer(bet, community)
    choice = None
    if offer is not None:
        choice = turbo.RAISE if turbo.optimal_raise(rules, community).raise_ else offer.default
    net: dict[str, int] = {}
    main = rules.edition.main.id
    for result in rules.settle(bet, community, choice, seat, ()).results:
        spot = main if result.spot == turbo.RAISE else result.spot
        net[spot] = net.get(spot, 0) + result.win
    return net


@pytest.mark.parametrize(("edition", "paytables"), _turbo_configs())
def test_turbo_fast_path_settles_as_the_game(edition: str, paytables: dict[str, str]) -> None:
    """Same cards -> the same icon and suited counts as the certified scorer and the same
    nets for every wager as ``TurboRules.settle``, in both deal modes, the raise decided by
    the game's own advice."""
    rules = turbo.load(edition, paytables)
    gen = np.random.Generator(np.random.PCG64(7))
    for mode, seats in ((TABLE, 2), (STADIUM, 2)):
        deal = fast_sim.turbo_deal(rules, seats, mode)
        community, hands = deal.deal(gen, ROUNDS)
        assert deal.wagers == tuple(s.id for s in rules.spots), "rows follow the rules' wager spots"
        tables = deal.tables
        for hand in hands:
            fast = tables.settle(community, hand)
            cards = np.concatenate((community, hand), axis=1).astype(np.intp)
            fast_icons = tables.icons[cards].sum(axis=1)
            fast_suited = [
                int(m).bit_count() for m in np.bitwise_or.reduce(tables.rank_bit[cards], axis=1)
            ]
            for i in range(ROUNDS):
                c = tuple(int(x) for x in community[i])
                s = tuple(int(x) for x in hand[i])
                assert len(set(c + s)) == 9
                icons, suited, _run = scoring.score_turbo(c + s, rules.suit)
                assert (int(fast_icons[i]), fast_suited[i]) == (icons, suited)
                expected = _reference_turbo(rules, deal.tables.scale, c, s)
                got = {w: int(fast[k, i]) for k, w in enumerate(deal.wagers)}
                assert got == expected, (edition, paytables, mode, c, s)


def test_turbo_fast_path_straight_flushes_and_many_suited_cards() -> None:
    """Rare hands (8 and 9 suited cards, straight flushes) settle as the game does too."""
    rules = turbo.load("turbo-football")
    deal = fast_sim.turbo_deal(rules, 1, TABLE)
    suit = rules.suit
    hands = [
        [r * 4 + suit for r in range(9)],  # 9-card straight flush 2-T
        [r * 4 + suit for r in (12, 0, 1, 2, 3, 4, 5, 6)] + [(8 * 4 + suit + 1) % 52],
        [r * 4 + suit for r in (0, 2, 4, 6, 8, 9, 10, 11, 12)],  # 9 suited, no run
        [r * 4 + (suit + 1) % 4 for r in range(9)],  # no icons at all
    ]
    cards = np.array(hands, dtype=np.int8)
    fast = deal.tables.settle(cards[:, :3], cards[:, 3:])
    for i, hand in enumerate(hands):
        expected = _reference_turbo(rules, deal.tables.scale, tuple(hand[:3]), tuple(hand[3:]))
        assert {w: int(fast[k, i]) for k, w in enumerate(deal.wagers)} == expected


def _stadium_configs() -> list[dict[str, str]]:
    configs: list[dict[str, str]] = [{}]
    for wager in WAGERS:
        for name in table_names(kind(wager)):
            if name != DEFAULTS[wager]:
                configs.append({wager: name})
    return configs


@pytest.mark.parametrize("paytables", _stadium_configs())
def test_stadium_fast_path_settles_as_the_game(paytables: dict[str, str]) -> None:
    """Same array, positions and dealer -> the same nets as ``StadiumRules.settle`` for
    every wager of the game: the seat's own and the 12 blind row and column wagers."""
    rules = stadium.load(paytables)
    deal = fast_sim.stadium_deal(rules, 3)
    scale = deal.tables.scale
    blind = [spot.id for spot in rules.spots if spot.group == "blind"]
    assert deal.wagers == ("ante_play", "pairs_plus", "six_card_bonus", *blind)
    assert len(blind) == 12
    gen = np.random.Generator(np.random.PCG64(11))
    array, dealer, picks = deal.deal(gen, ROUNDS)
    nets = deal.play(np.random.Generator(np.random.PCG64(11)), ROUNDS)  # the same cards
    for seat, positions in enumerate(picks):
        fast = nets[:, seat]
        for i in range(ROUNDS):
            a = tuple(int(x) for x in array[i])
            p = tuple(int(x) for x in positions[i])
            d = tuple(int(x) for x in dealer[i])
            bet = SeatBet(dict.fromkeys((spot.id for spot in rules.spots), scale), p)
            choice = "play" if q64_play([a[j] for j in p]) else "fold"
            net = {r.spot: r.win for r in rules.settle(bet, a, choice, (), d).results}
            expected = (
                net["ante"] + net.get("play", 0) + net.get("ante_bonus", 0),
                net["pairs_plus"],
                net["six_card_bonus"],
                *(net[w] for w in blind),
            )
            assert tuple(int(x) for x in fast[:, i]) == expected, (a, p, d)


def test_six_card_categories_match_the_reference_on_rare_hands() -> None:
    """Flushes, straight flushes, quads and full houses of 6 cards."""
    from kiosk.kernel.games import poker3

    tables = fast_sim.stadium_deal(stadium.load({}), 1).tables
    hands = [
        [48, 44, 40, 36, 32, 1],  # royal flush in spades
        [0, 4, 8, 12, 48, 1],  # A-2-3-4-5 straight flush (wheel)
        [0, 1, 2, 3, 4, 5],  # four deuces, a pair of threes
        [0, 1, 2, 4, 5, 9],  # full house
        [0, 8, 16, 24, 40, 5],  # flush
        [0, 5, 10, 15, 16, 21],  # straight 2-6
    ]
    cards = np.array(hands, dtype=np.intp)
    exact = [poker3.best_five_category(h) for h in hands]
    assert [int(x) for x in tables.best_five(cards)] == exact
    halves = (cards[:, :3], cards[:, 3:])
    for first, other in (halves, halves[::-1]):  # 3 + 3 by look-ups, either half first
        code = (first[:, 0] * 52 + first[:, 1]) * 52 + first[:, 2]
        got = tables.six_category(first, code, tables.three_key(other))
        assert [int(x) for x in got] == exact


def test_a_seed_gives_the_same_result_whatever_the_jobs() -> None:
    """Chunked seeding: 1 process and 2 processes give identical sums."""
    rules = turbo.load("turbo-football")
    deal = fast_sim.turbo_deal(rules, 2, TABLE)
    games = 2 * fast_sim.CHUNK_ROUNDS + 1000
    one = fast_sim.run_chunks(deal, games, 5, 1)
    two = fast_sim.run_chunks(deal, games, 5, 2)
    assert one.sums == two.sums
    other = fast_sim.run_chunks(deal, games, 6, 1)
    assert other.sums != one.sums


def test_ctrl_c_keeps_the_chunks_done() -> None:
    """A Ctrl-C between chunks: the partial sums of the chunks done, marked interrupted."""
    deal = fast_sim.stadium_deal(stadium.load({}), 1)
    seen: list[int] = []

    def progress(done: int) -> None:
        seen.append(done)
        if len(seen) == 2:
            raise KeyboardInterrupt

    run = fast_sim.run_chunks(deal, 5 * fast_sim.CHUNK_ROUNDS, 1, 1, progress)
    assert run.interrupted
    assert run.sums.rounds == 2 * fast_sim.CHUNK_ROUNDS


def test_errors_come_from_the_exact_variance() -> None:
    """A run that never saw the big pays still gets the par sheet's standard error: the
    error does not shrink with the sample's spread."""
    rules = turbo.load("turbo-football")
    pars = turbo_par.rules_par_sheet(rules).wagers
    bonus = pars[nine_card_bonus.KIND]
    games, scale = 200_000, 1
    sums = fast_sim.ChunkResult(
        games,
        {
            w: fast_sim.WagerSums(
                [-games], [games], -games, games, {0: [games, -games, games, games]}
            )
            for w in pars
        },
    )
    sim = fast_sim.report("turbo-football", TABLE, scale, RunSums(sums, False), 1, pars, {}, {})
    row = {r.wager_id: r for r in sim.pooled}[nine_card_bonus.KIND]
    assert row.error_basis == "exact"
    assert row.std_error == pytest.approx(math.sqrt(bonus.variance / games))
    assert row.sample_std_error == 0.0
    assert row.observed_edge == 1.0
    assert row.z == pytest.approx((1 - float(bonus.house_edge)) / row.std_error)


def test_pooled_error_uses_the_exact_covariance_or_the_bound() -> None:
    """Two seats: the pooled error is sqrt((var + cov) / 2 / games) with the exact
    covariance, and the bound sqrt(var / games) without it."""
    rules = stadium.load({})
    pars = default_pars()  # the rules are stadium.load({})
    deal = fast_sim.stadium_deal(rules, 2)
    run = fast_sim.run_chunks(deal, 4000, 3, 1)
    cov = {"pairs_plus": Fraction(1, 100)}
    sim = fast_sim.report("stadium-3cp", STADIUM, deal.tables.scale, run, 2, pars, cov, {})
    rows = {r.wager_id: r for r in sim.pooled}
    pp = pars["pairs_plus"].variance
    assert rows["pairs_plus"].error_basis == "exact"
    assert rows["pairs_plus"].std_error == pytest.approx(
        math.sqrt((pp + Fraction(1, 100)) / 2 / 4000)
    )
    assert rows["ante_play"].error_basis == "bound"
    assert rows["ante_play"].std_error == pytest.approx(
        math.sqrt(pars["ante_play"].variance / 4000)
    )


def test_the_terminal_does_not_need_numpy() -> None:
    """Only a simulation imports numpy: the families' par-sheet parts (the service menu's
    house edges) and the game code load without it."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from kiosk.kernel.analysis import families\n"
        "for e in families.edition_ids():\n"
        "    families.par_family(e).edge_plan\n"
        "import kiosk.terminal.service.functions.house_edge\n"
        "assert 'numpy' not in sys.modules, 'numpy imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("edition", "mode", "seats", "games"),
    [
        ("turbo-football", TABLE, 8, 2_000_000),
        ("turbo-hockey", STADIUM, 50, 200_000),
        ("icon-v2", TABLE, 1, 20_000_000),
        ("stadium-3cp", None, 50, 200_000),
        ("stadium-3cp", None, 1, 20_000_000),
    ],
)
def test_long_runs_agree_with_the_exact_math(
    edition: str, mode: str | None, seats: int, games: int
) -> None:
    """Long vectorised runs, every seat and correlation checked (tox -e slow)."""
    from kiosk.kernel.analysis import families

    sim = families.par_family(edition).simulate(
        edition, games, {}, seed=1414, seats=seats, mode=mode
    )
    assert sim.agrees(), [(r.wager_id, r.z) for r in sim.pooled]
    assert not sim.interrupted


def test_stadium_report_confirms_every_wager_with_exact_errors() -> None:
    """``simulate stadium-3cp`` reports all 15 wagers; the 12 blind ones with the par sheet's
    variance, the same at every seat (the lines are shared), pooled with covariance =
    variance (an exact error) and no correlation row (1 by construction)."""
    from kiosk.kernel.analysis import families

    rules = stadium.load({})
    games, seats = 3000, 3
    sim = families.par_family("stadium-3cp").simulate(
        "stadium-3cp", games, {}, seed=2, seats=seats, mode=None, jobs=1
    )
    blind = [spot.id for spot in rules.spots if spot.group == "blind"]
    assert [r.wager_id for r in sim.pooled] == ["ante_play", "pairs_plus", "six_card_bonus", *blind]
    pars = default_pars()  # the rules are stadium.load({})
    rows = {r.wager_id: r for r in sim.pooled}
    correlations = {c.wager_id: c for c in sim.correlations}
    for wager in blind:
        kind_par = pars["pairs_plus" if wager.startswith("pairs_plus") else "six_card_bonus"]
        assert pars[wager].variance == kind_par.variance
        assert pars[wager].house_edge == kind_par.house_edge
        assert rows[wager].error_basis == "exact"
        assert rows[wager].std_error == pytest.approx(math.sqrt(kind_par.variance / games))
        at_seats = {
            seat[len(sim.pooled) - len(blind) + blind.index(wager)] for seat in sim.per_seat
        }
        assert len({r.observed_edge for r in at_seats}) == 1
        assert next(iter(at_seats)).observed_edge == rows[wager].observed_edge
        assert wager not in correlations
    assert sim.agrees()
