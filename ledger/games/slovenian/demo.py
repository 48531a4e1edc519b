"""The Slovenian demo club: a deterministic season start of "Ljubljana Tarok Klub" (``demo-sl``).

``build_demo()`` plays four club evenings through ``ledger.services`` only, so the demo is
valid by construction: twelve members (four with log-ins, one per role), the 2026/2027
season, tables of 3, 4 and 5 seats following each table's rotation, random hands from
``engine.generate.random_hand`` and hand-picked ones so that every contract, every bonus, a
valat, a captured Mond, klop and radli occur; a corrected hand (the later hands' radli are
re-settled), an annulled deal, and closings (radli penalties, then the pool split). The last
evening is left open, so the tablet has something live. One seeded ``random.Random`` and the
shared virtual clock make ``fixtures/demo-sl.json`` regenerate byte for byte.
"""

from __future__ import annotations

import datetime
import random

from django.contrib.auth import get_user_model

from ledger import services
from ledger.models import Club, Federation, Member, Tournament
from ledger.services import federation as fed
from ledger.services import tournaments as tour
from ledger.services.demo import Clock, Demo, DemoUser, demo_password, demo_setup

from .engine import rotation
from .engine.generate import random_hand
from .engine.hand import CONTRACTS
from .engine.ratecard import BONUS_TYPES, GAME_CODE, RateCard

DEMO_SLUG = "demo-sl"
DEMO_NAME = "Ljubljana Tarok Klub"
DEMO_PASSWORD = "tarok-demo"
DEMO_SEED = 1991

MEMBERS = (
    "Janez",
    "Marija",
    "Franc",
    "Ana",
    "Marko",
    "Mojca",
    "Luka",
    "Nina",
    "Matej",
    "Petra",
    "Tomaž",
    "Špela",
)
DEMO_USERS = (
    DemoUser("sl-predsednik", "Janez", Member.Role.ADMIN),
    DemoUser("sl-blagajnik", "Marija", Member.Role.TREASURER),
    DemoUser("sl-zapisnikar", "Franc", Member.Role.SCOREKEEPER),
    DemoUser("sl-clan", "Ana", Member.Role.MEMBER),
)
SEASON = ("2026/2027", datetime.date(2026, 8, 1), datetime.date(2027, 7, 31))
# Each evening: its date and its tables' sizes; the last one stays open.
EVENINGS = (
    (datetime.date(2026, 9, 10), (4, 4)),
    (datetime.date(2026, 9, 24), (5, 3)),
    (datetime.date(2026, 10, 8), (4, 5)),
    (datetime.date(2026, 10, 22), (4,)),
)
HANDS = (9, 13)
CORRECTION = (1, 0, 2, 4)  # evening, table: hand 2 is corrected after hand 4
ANNULLED = (2, 1, 3)  # evening, table, hand: a deal thrown in


def _wanted():
    """Yield what the hand-picked hands must show, in turn: every contract, every bonus (made
    and announced), a valat and a Mond."""
    for contract in CONTRACTS:
        yield ("contract", contract)
    for bonus in BONUS_TYPES:
        yield ("bonus", bonus)
    yield ("valat", None)
    yield ("mond", None)
    yield ("kontra", None)


def _fits(record: dict, want) -> bool:
    kind, value = want
    if kind == "contract":
        return record.get("contract") == value
    if kind == "bonus":
        return any(b["type"] == value for b in record.get("bonuses") or ())
    if kind == "valat":
        return bool(record.get("valat"))
    if kind == "mond":
        return bool(record.get("mond_captured"))
    return bool(record.get("kontra"))


class _Builder:
    def __init__(self, *, seed: int):
        self.rng = random.Random(seed)
        self.clock = Clock()
        self.wanted = list(_wanted())
        self.rates = RateCard()

    def build(self) -> Club:
        with self.clock.installed():
            self.setup()
            for index, (date, sizes) in enumerate(EVENINGS):
                self.evening(index, date, sizes, close=index < len(EVENINGS) - 1)
        return self.club

    def setup(self) -> None:
        self.clock.set(SEASON[1], -240)
        self.club, self.users, self.members = demo_setup(
            slug=DEMO_SLUG,
            name=DEMO_NAME,
            game=GAME_CODE,
            rate_card=self.rates.as_dict(),
            users=DEMO_USERS,
            password=DEMO_PASSWORD,
            members=MEMBERS,
            season=SEASON,
            clock=self.clock,
        )

    def hand(self, seats, dealer, radli) -> dict:
        """A random hand, or the next hand-picked one (drawn until it shows what is wanted)."""
        if self.wanted and self.rng.random() < 0.5:
            want = self.wanted[0]
            for _ in range(4000):
                record = random_hand(self.rng, seats, dealer, radli)
                if _fits(record, want):
                    self.wanted.pop(0)
                    break
        else:
            record = random_hand(self.rng, seats, dealer, radli)
        record.pop("radli_before", None)
        return record

    def evening(self, index, date, sizes, *, close) -> None:
        scorekeeper = self.users[Member.Role.SCOREKEEPER]
        treasurer = self.users[Member.Role.TREASURER]
        self.clock.set(date, 0)
        evening = services.evening_open(club=self.club, date=date, by=treasurer)
        names = list(MEMBERS)
        self.rng.shuffle(names)
        tables = []
        for number, size in enumerate(sizes):
            seats = [names.pop() for _ in range(size)]
            first = self.rng.choice(seats)
            self.clock.set(date, 2 + number)
            table = services.table_open(
                evening=evening,
                members=[self.members[n] for n in seats],
                first_dealer=self.members[first],
                by=scorekeeper,
            )
            tables.append([table, seats, first, self.rng.randint(*HANDS), {}])
        minute = 5
        for t, (table, seats, first, count, recorded) in enumerate(tables):
            for number in range(1, count + 1):
                minute += 4
                self.clock.set(date, minute)
                dealer = rotation.dealer_of(seats, first, number)  # dealt in turn
                radli = services.table_state(table)
                if (index, t, number) == ANNULLED:
                    record = {
                        "format": "tarokclub.hand/1",
                        "game": GAME_CODE,
                        "dealer": dealer,
                        "annulled": True,
                    }
                else:
                    record = self.hand(seats, dealer, radli)
                hand = services.hand_record(table=table, record=record, by=scorekeeper)
                recorded[number] = (hand, record)
                if (index, t) == CORRECTION[:2] and number == CORRECTION[3]:
                    wrong, right = recorded[CORRECTION[2]]
                    fixed = self._corrected(right)
                    self.clock.set(date, minute + 1)
                    services.hand_correct(
                        hand=wrong, record=fixed, reason="Napačno vpisano", by=treasurer
                    )
        if close:
            self.clock.set(date, minute + 20)
            services.evening_close(evening=evening, by=treasurer)

    def _corrected(self, record: dict) -> dict:
        """The hand as it really went: a klop recorded as a plain game, or the card points
        a few off (a klop hands out radli, so the later hands re-settle)."""
        fixed = {k: v for k, v in record.items()}
        if fixed.get("card_points") is not None:
            fixed["card_points"] = min(70, fixed["card_points"] + 6)
        else:
            fixed.pop("won", None)
            fixed.pop("klop", None)
            fixed.update(contract="klop")
            seats = fixed["seats"]
            active = rotation.active_players(seats, fixed["dealer"])
            points = [70 - 15 * (len(active) - 1)] + [15] * (len(active) - 1)
            fixed["klop"] = {
                name: {"card_points": p, "took_trick": True}
                for name, p in zip(active, points, strict=True)
            }
            for key in ("declarer", "partner", "kontra", "bonuses", "valat", "mond_captured"):
                fixed.pop(key, None)
        return fixed


# The demo tournament: a 24-player DP, the club's twelve members and twelve guests.
TOURNAMENT_NAME = "DP Ljubljana (demo)"
TOURNAMENT_DATE = datetime.date(2026, 11, 14)
TOURNAMENT_SEED = "DEMO-SL-DP-2026-11-14"
TOURNAMENT_HANDS = 8  # hands per table, short so the demo loads quickly
GUESTS = (
    ("Jože", "TK Maribor"),
    ("Irena", "TK Maribor"),
    ("Stanko", "TK Maribor"),
    ("Vesna", "TK Celje"),
    ("Bojan", "TK Celje"),
    ("Katja", "TK Celje"),
    ("Primož", "TK Koper"),
    ("Urška", "TK Koper"),
    ("Rok", "TK Koper"),
    ("Maja", "TK Novo mesto"),
    ("Gregor", "TK Novo mesto"),
    ("Tanja", "TK Novo mesto"),
)


def build_tournament(club: Club) -> Tournament:
    """Give the demo club its demo tournament (once: a second call finds it and writes
    nothing): a Slovenian DP of 24 players, the members and the guests, ranked by a ladder;
    rounds 1 and 2 played through the tournament's tables (random hands in turn, a short
    target per table) and closed, round 3 drawn and published."""
    found = Tournament.objects.filter(club=club, name=TOURNAMENT_NAME).first()
    if found is not None:
        return found
    director = club.members.get(role=Member.Role.ADMIN).user
    rng = random.Random(TOURNAMENT_SEED)
    clock = Clock()
    with clock.installed():
        clock.set(TOURNAMENT_DATE, -600)
        t = tour.tournament_create(
            club=club,
            name=TOURNAMENT_NAME,
            date=TOURNAMENT_DATE,
            game=GAME_CODE,
            tournament_format="sl_dp",
            params={"rounds": 4, "hands_target": TOURNAMENT_HANDS},
            seed=TOURNAMENT_SEED,
            by=director,
        )
        players = [(name, club.name) for name in MEMBERS] + list(GUESTS)
        rng.shuffle(players)
        ladder = "\n".join(f"{n},{c},{rank}" for rank, (n, c) in enumerate(players, 1))
        tour.entries_import(tournament=t, text="name,club,rank\n" + ladder, by=director)
        for number in (1, 2):
            clock.set(TOURNAMENT_DATE, (number - 1) * 120 - 540)
            r = tour.round_draw(tournament=t, by=director)
            tour.round_publish(round_=r, by=director)
            clock.set(TOURNAMENT_DATE, (number - 1) * 120 - 530)
            r = tour.round_start(round_=r, by=director)
            minute = (number - 1) * 120 - 530
            for rt in r.round_tables.select_related("table").order_by("number"):
                table = rt.started_table
                seats = [s.name for s in table.seats.order_by("position")]
                for hand in range(1, TOURNAMENT_HANDS + 1):
                    clock.set(TOURNAMENT_DATE, minute + 9 * hand)
                    dealer = rotation.dealer_of(seats, seats[0], hand)
                    record = random_hand(rng, seats, dealer, services.table_state(table))
                    record.pop("radli_before", None)
                    services.hand_record(table=table, record=record, by=director)
            clock.set(TOURNAMENT_DATE, minute + 9 * TOURNAMENT_HANDS + 5)
            tour.round_close(round_=r, by=director)
        clock.set(TOURNAMENT_DATE, -290)
        r = tour.round_draw(tournament=t, by=director)
        tour.round_publish(round_=r, by=director)
    t.refresh_from_db()
    return t


# The demo federation (issue 30): "Tarok zveza (demo)" of the demo club and a second, small
# club, TK Maribor, whose members are the demo tournament's Maribor guests; two final DPs
# played at Maribor before the demo tournament, a series of the three, published.
FEDERATION_SLUG = "demo-tzs"
FEDERATION_NAME = "Tarok zveza (demo)"
OFFICER = "sl-zveza"  # the federation's officer, with the demo's password
MARIBOR_SLUG = "demo-sl-mb"
MARIBOR_NAME = "TK Maribor"
MARIBOR_MEMBERS = ("Jože", "Irena", "Stanko", "Darko", "Alenka", "Boris", "Simona", "Zoran")
# Each past DP: its name, date and the Ljubljana members who play it as guests.
PAST_DPS = (
    ("DP Maribor 1 (demo)", datetime.date(2026, 10, 17), ("Janez", "Marija", "Franc", "Ana")),
    ("DP Maribor 2 (demo)", datetime.date(2026, 10, 31), ("Marko", "Mojca", "Luka", "Nina")),
)
PAST_HANDS = 4  # hands per table: short, so `make run` stays fast
SERIES_NAME = "DP 2026/2027 (demo)"
# Fixed points per place (the Masters' kind of table), the first eight qualify.
SERIES_RULE = {
    "source": "placement",
    "scale": {"kind": "table", "points": [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4], "beyond": 2},
    "qualify": 8,
}


def _play_rounds(t: Tournament, rng: random.Random, clock: Clock, rounds: int, hands: int, by):
    """Play ``rounds`` rounds of ``t`` on its date: drawn, published, started, ``hands``
    random hands in turn at every table, closed."""
    for number in range(1, rounds + 1):
        minute = (number - 1) * 120 - 540
        clock.set(t.date, minute)
        r = tour.round_publish(round_=tour.round_draw(tournament=t, by=by), by=by)
        clock.set(t.date, minute + 10)
        r = tour.round_start(round_=r, by=by)
        for rt in r.round_tables.select_related("table").order_by("number"):
            table = rt.started_table
            seats = [s.name for s in table.seats.order_by("position")]
            for hand in range(1, hands + 1):
                clock.set(t.date, minute + 10 + 9 * hand)
                dealer = rotation.dealer_of(seats, seats[0], hand)
                record = random_hand(rng, seats, dealer, services.table_state(table))
                record.pop("radli_before", None)
                services.hand_record(table=table, record=record, by=by)
        clock.set(t.date, minute + 15 + 9 * hands)
        tour.round_close(round_=r, by=by)


# The demo federation's rating list.
RATING_NAME = "Rating TZS (demo)"


def build_federation(club: Club) -> Federation | None:
    """Build the demo federation once (a second call finds it and writes nothing): TK
    Maribor and its members, the federation of both clubs with its officer, and the two final
    DPs played at Maribor through the tournament services (Ljubljana's members as guests, each
    his own player). Returns the federation, new (None: it was there)."""
    if Federation.objects.filter(slug=FEDERATION_SLUG).exists():
        return None
    rng = random.Random(f"{FEDERATION_SLUG}-{DEMO_SEED}")
    clock = Clock()
    with clock.installed():
        clock.set(SEASON[1], -200)
        maribor, _users, _people = demo_setup(
            slug=MARIBOR_SLUG,
            name=MARIBOR_NAME,
            game=GAME_CODE,
            rate_card=RateCard().as_dict(),
            users=(),
            password=DEMO_PASSWORD,
            members=MARIBOR_MEMBERS,
            season=SEASON,
            clock=clock,
        )
        officer = get_user_model().objects.create(
            username=OFFICER,
            password=demo_password(DEMO_PASSWORD, OFFICER),
            first_name="Zveza",
            date_joined=clock.now,
        )
        federation = fed.federation_create(
            name=FEDERATION_NAME,
            slug=FEDERATION_SLUG,
            game=GAME_CODE,
            language="sl",
            officers=[officer],
        )
        for member_club in (club, maribor):
            fed.club_join(federation=federation, club=member_club)
            for member in member_club.members.order_by("pk"):
                fed.player_for_member(member)  # a guest elsewhere is matched to him
        for name, date, guests in PAST_DPS:
            clock.set(date, -600)
            t = tour.tournament_create(
                club=maribor,
                name=name,
                date=date,
                game=GAME_CODE,
                tournament_format="sl_dp",
                params={"rounds": 2, "hands_target": PAST_HANDS},
                seed=f"DEMO-SL-{date.isoformat()}",
            )
            tour.entries_add(tournament=t, members=list(maribor.members.order_by("pk")))
            for guest in guests:
                tour.entry_add_guest(tournament=t, name=guest, club_name=club.name)
            _play_rounds(t, rng, clock, 2, PAST_HANDS, None)
            tour.tournament_finish(tournament=t)
    return federation


def build_season(club: Club) -> Tournament:
    """What ``seed_demo`` adds after loading the Slovenian demo: the demo federation with its
    two past DPs (``build_federation``), the demo tournament (``build_tournament``), and the
    series of the three, published, named as the demo tournament's ladder, and the federation's
    rating list (rated from the two past DPs). Once."""
    federation = build_federation(club)
    t = build_tournament(club)
    if federation is not None:
        past = Tournament.objects.filter(club__slug=MARIBOR_SLUG).order_by("date", "pk")
        series = fed.series_create(
            federation=federation,
            name=SERIES_NAME,
            seed=SERIES_NAME,
            starts_on=SEASON[1],
            ends_on=SEASON[2],
            rule=SERIES_RULE,
            events=[(p, "1") for p in past] + [(t, "1")],
        )
        fed.tournament_ladder_set(tournament=t, series=series)
        fed.federation_publish_set(federation=federation, publish=True)
        fed.rating_list_create(federation=federation, name=RATING_NAME)
    return t


def build_demo(*, seed: int = DEMO_SEED) -> Club:
    """Build the Slovenian demo club, its members and log-ins through the services."""
    return _Builder(seed=seed).build()


DEMO = Demo(
    slug=DEMO_SLUG,
    name=DEMO_NAME,
    password=DEMO_PASSWORD,
    users=DEMO_USERS,
    fixture="demo-sl.json",
    build=build_demo,
    after_load=build_season,
    extra_clubs=(MARIBOR_SLUG,),
    extra_users=(OFFICER,),
    federation=FEDERATION_SLUG,
)
