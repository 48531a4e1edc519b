"""The web side of Danish Tarok: its words, its entry form, its statistics and its rate card
form. Django is allowed here; the engine (``engine/``) stays pure.

Everything the web layer shows of the game is here: the labels of the reasons (sheet and
preview), fines, melds, suits and cards; the entry form (``ledger/games/danish/_entry.html``
with ``entry.js``); what happened in a hand, from ``Posting.outcome``; the statistics columns
(ultimo with pagat or a king, bagud, nolo and tout from the outcome, melds from the
transfers a member receives); and the admin fields of the rate card.
"""

from __future__ import annotations

import itertools

from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.games.money import MAX_POINTS, signed_points
from ledger.games.web import GameWeb

from .engine import RateCard, rotation
from .engine.hand import COURT_CARDS, GAME_CODE, MELD_SUITS
from .engine.outlook import cup_outlook
from .engine.ratecard import FINE_TYPES, FINES_BARRING_ULTIMO, OPTIONS

FINE_PREFIX = "fine_"

# --- reasons and fines ------------------------------------------------------------------

# As sheets and exports show a transfer's reason.
REASON_LABELS = {
    "funding": _("funding"),
    "dealer_fee": _("dealer's fee"),
    "meld_tarok": _("tarok meld"),
    "meld_matador": _("matador meld"),
    "meld_half": _("half meld"),
    "meld_full": _("full meld"),
    "meld_overfull": _("overfull meld"),
    "lost_king": _("king lost"),
    "lost_pagat": _("pagat lost"),
    "pagat_home": _("pagat home"),
    "tout": _("tout"),
    "tout_cup": _("tout takes the cup"),
    "nolo": _("nolo"),
    "ultimo": _("ultimo"),
    "ultimo_cup": _("ultimo takes the cup"),
    "bagud": _("bagud"),
    "bagud_cup": _("bagud into the cup"),
    "last_trick": _("last trick"),
    "count": _("count"),
    "refund": _("refund"),
    "split": _("split"),
    "adjustment": _("adjustment"),
}
# As the hand preview lists every payment.
PAYMENT_LABELS = {
    "dealer_fee": _("Dealer's fee"),
    "meld_tarok": _("Taroks"),
    "meld_matador": _("Matadors"),
    "meld_half": _("Half"),
    "meld_full": _("Full"),
    "meld_overfull": _("Overfull"),
    "lost_king": _("King lost"),
    "lost_pagat": _("Pagat lost"),
    "pagat_home": _("Pagat home"),
    "tout": _("Tout"),
    "tout_cup": _("Tout takes the cup"),
    "nolo": _("Nolo"),
    "ultimo": _("Ultimo"),
    "ultimo_cup": _("Ultimo takes the cup"),
    "bagud": _("Bagud"),
    "bagud_cup": _("Bagud into the cup"),
    "last_trick": _("Last trick"),
    "count": _("Count"),
    "refund": _("Refunding"),
    "funding": _("Funding"),
    "split": _("Split"),
    "adjustment": _("Adjustment"),
}
FINE_LABELS = {
    "cups_not_moved": _("Cups not moved"),
    "misdeal": _("Misdeal"),
    "meld_before_dealer": _("Meld before the dealer"),
    "meld_error": _("Meld error"),
    "wrong_card_count": _("Wrong number of cards"),
    "wrong_skat": _("Wrong skat"),
    "lead_out_of_turn": _("Lead out of turn"),
    "revoke": _("Revoke"),
    "false_scies_call": _("False scies call"),
}
SUIT_LABELS = {
    "hearts": _("Hearts"),
    "diamonds": _("Diamonds"),
    "spades": _("Spades"),
    "clubs": _("Clubs"),
    "kings": _("Kings"),
}
CARD_LABELS = {
    "king": _("King"),
    "queen": _("Queen"),
    "cavalier": _("Cavalier"),
    "knight": _("Knight"),
}
MELD_LABELS = {
    "tarok": _("Taroks"),
    "matador": _("Matadors"),
    "half": _("Half"),
    "full": _("Full"),
    "overfull": _("Overfull"),
}
EVENT_LABELS = {
    "lost_king": _("King lost"),
    "lost_pagat": _("Pagat lost"),
    "pagat_home": _("Pagat home"),
}
# The ultimo card (and the bagud card) in an outcome, as sheets show it.
OUTCOME_CARD_LABELS = {"king": _("king"), "pagat": _("pagat")}

# --- the rate card form ------------------------------------------------------------------

# Every setting of the rate card: its label and what it does, in a sentence.
RATE_CARD_LABELS = {
    "funding_per_cup": (
        _("funding per cup"),
        _("What each member pays into each cup when he sits down at the table."),
    ),
    "refund_per_cup": (
        _("refunding per cup"),
        _("What every seated member pays into a cup that a hand emptied."),
    ),
    "dealer_fee_per_cup": (
        _("dealer's fee per cup"),
        _("What the dealer pays into each cup before he deals."),
    ),
    "meld_tarok_base": (
        _("tarok meld: 10 taroks"),
        _("Paid by each opponent for a meld of ten taroks."),
    ),
    "meld_tarok_step": (_("tarok meld: each more"), _("Added for each tarok over ten.")),
    "meld_matador_base": (_("matadors: 3"), _("Paid by each opponent for three matadors.")),
    "meld_matador_step": (_("matadors: each more"), _("Added for each matador over three.")),
    "meld_half": (
        _("half meld"),
        _("Paid by each opponent for three court cards of a suit (or three kings) and the scies."),
    ),
    "meld_full": (
        _("full meld"),
        _("Paid by each opponent for the four court cards of a suit, or the four kings."),
    ),
    "meld_overfull": (
        _("overfull meld"),
        _("Paid by each opponent for a full meld with the scies."),
    ),
    "lost_ultimo_card_each": (
        _("ultimo card lost: to each player"),
        _("What the owner of a king or the pagat lost before the last trick pays each player."),
    ),
    "lost_ultimo_card_cup": (
        _("ultimo card lost: into the cup"),
        _("What he also pays into the cup of the card he lost."),
    ),
    "pagat_home_each": (
        _("pagat home: from each player"),
        _("Paid to the owner of the pagat when it wins a trick before the last."),
    ),
    "ultimo_pagat_each": (
        _("pagat ultimo (and bagud): from each"),
        _("Paid by each player to a pagat ultimo; a bagud with the pagat pays it to each."),
    ),
    "ultimo_king_each": (
        _("king ultimo (and bagud): from each"),
        _("The same for an ultimo or a bagud with a king."),
    ),
    "last_trick_each": (
        _("last trick: from each"),
        _("Paid by each player to the winner of the last trick."),
    ),
    "nolo_each": (_("nolo: from each"), _("Paid by each opponent to a player who took no trick.")),
    "tout_variant": (_("tout"), _("How a player who takes every trick is paid.")),
    "tout_each": (_("tout: from each"), _("Paid by each opponent to a tout (Møller's rules).")),
    "tout_each_pagat": (
        _("tout, pagat variant: from each"),
        _("Paid by each opponent to a tout under the pagat.com rules."),
    ),
    "tout_each_agger": (
        _("tout, Agger variant: from each"),
        _("Paid by each opponent to a tout under Agger's 1970 rules (with both cups, no count)."),
    ),
    "multi_bagud": (
        _("several bagud into one cup"),
        _("How two bagud into the same cup in one hand are paid."),
    ),
    "cup_cap": (
        _("cup cap"),
        _("The most a bagud pays into a cup; 0: no cap, the cup doubles with every bagud."),
    ),
    "count_par": (
        _("count: par"),
        _("The card points a counter needs; what he has more or less is paid."),
    ),
    "count_round_to": (
        _("count: rounded to"),
        _("The difference from par is rounded to a multiple of this."),
    ),
    "five_seat_rotation": (_("rotation at 5 seats"), _("Who sits out at a table of five.")),
    "split_unit": (
        _("split unit"),
        _("At the close the cups are shared out in whole units of this."),
    ),
}
FINE_FIELD_LABELS = {
    "cups_not_moved": _("cups not moved"),
    "misdeal": _("misdeal"),
    "meld_before_dealer": _("meld before the dealer"),
    "meld_error": _("meld error"),
    "wrong_card_count": _("wrong number of cards"),
    "wrong_skat": _("wrong skat"),
    "lead_out_of_turn": _("lead out of turn"),
    "revoke": _("revoke (kulørsvigt)"),
    "false_scies_call": _("false scies call"),
}
for _fine, _label in FINE_FIELD_LABELS.items():
    RATE_CARD_LABELS[f"fines_per_cup.{_fine}"] = (
        _label,
        _("What the member fined pays into each cup."),
    )
CHOICE_LABELS = {
    "moller": _("Møller: from each, both cups, count on top"),
    "pagat": _("pagat.com: from each, cups untouched, no count"),
    "agger": _("Agger 1970: from each, both cups, no count"),
    "each_pays_p": _("each pays the cup as it stood"),
    "sequential": _("each doubles the cup"),
    "two_sitters": _("two sit out"),
    "hermansen": _("Hermansen: blocks of 5 hands"),
}


def rotation_map(seats: list[str], rates) -> dict:
    """Return, for the entry form, every dealer's default sitters and every role's non-counter.

    The browser uses it when the scorekeeper overrides the dealer or the sitters, so the
    rules of the rotation stay on the server.
    """
    rule = rates.five_seat_rotation
    defaults = {}
    non_counter = {}
    for dealer in seats:
        out = rotation.default_sitting_out(seats, dealer, rule)
        defaults[dealer] = list(out) if out is not None else None
        others = [s for s in seats if s != dealer]
        for sitters in itertools.combinations(others, len(seats) - 3):
            key = dealer + "|" + ",".join(sitters)
            non_counter[key] = rotation.non_counter(seats, dealer, sitters, rule)
    return {"defaults": defaults, "non_counter": non_counter}


# The payments the outcome's own words already name (the tout, nolo, ultimo and bagud).
TOLD_BY_OUTCOME = frozenset(
    {"tout", "tout_cup", "nolo", "ultimo", "ultimo_cup", "bagud", "bagud_cup"}
)


class DanishWeb(GameWeb):
    code = GAME_CODE
    club_defaults = {"language": "da", "currency": "DKK", "time_zone": "Europe/Copenhagen"}
    title = _("Danish Tarok")  # the game's name in the reader's language
    entry_template = "ledger/games/danish/_entry.html"
    entry_script = "ledger/games/danish/entry.js"
    entry_styles = ("ledger/games/danish/entry.css",)
    quick_reasons = (
        _("Wrong count"),
        _("Wrong winner of the last trick"),
        _("A meld was forgotten"),
        _("A fine was wrong"),
    )

    demo = "ledger.games.danish.demo.DEMO"  # "Hjørring Tarokklub"
    wait_hint = _("Tap who won the last trick, then enter the counts.")
    words = {
        "open_table_lead": _(
            "Seat 3 to 5 members in the direction of play. Each pays the funding into both cups."
        ),
        "pools_after": _("Cups after"),
        "before_close": _("Before the split"),
        "close_row": _("Split"),
        "balances_before_close": _("Balances before the split"),
        "reopen_explains": _("Reopening reverses the split of every table; the reason is logged."),
        "jetons_count_help": _(
            "Each member started with {start} jetons; enter what is in front of each account "
            "now (the cups before the split)."
        ),
        "pools_not_split": _("the cups are not split yet"),
        "close_explains": _(
            "Closing splits the cups of every table (what does not divide evenly goes to the "
            "member who did worst), writes each member's result in points and money, and locks "
            "the evening."
        ),
    }
    close_columns = (("split", _("Share of the cups")),)
    reason_labels = REASON_LABELS
    payment_labels = PAYMENT_LABELS
    pool_labels = {"kongekop": _("kongekop"), "pagatkop": _("pagatkop")}
    pool_classes = {"kongekop": "konge", "pagatkop": "pagat"}
    entry_sections = ("last_trick", "count", "extras")
    section_of_field = {
        "melds": "extras",
        "during_play": "extras",
        "fines": "extras",
        "annulled": "extras",
        "nolo": "extras",
        "tout": "extras",
        "last_trick": "last_trick",
        "count": "count",
    }
    stats_columns = (
        ("ultimo_pagat", _("Ultimo pagat")),
        ("ultimo_king", _("Ultimo king")),
        ("bagud", _("Bagud")),
        ("nolo", _("Nolo")),
        ("tout", _("Tout")),
        ("melds", _("Melds")),
    )
    stats_note = _(
        "Points are each member's balances at the season's evenings, after the split of the "
        "cups once an evening is closed; money is the points at each evening's price per "
        "point. Hands, ultimo, bagud, nolo, tout and melds count only hands as they stand "
        "after corrections."
    )
    stats_help = {
        "ultimo_pagat": _("Hands in which the member played ultimo with the pagat."),
        "ultimo_king": _("Hands in which the member played ultimo with a king."),
        "bagud": _("Hands in which the member was bagud."),
        "nolo": _("Hands in which the member played nolo."),
        "tout": _("Hands in which the member played tout."),
        "melds": _(
            "Points received for melds: what the other players paid the member for his "
            "melds over the season (a number of points, not of melds)."
        ),
    }

    def column_notes(self):
        return [
            _(
                "“Melds” are the points received for melds: what the other players paid the "
                "member for his melds over the season, not the number of melds."
            )
        ]

    def schedule_notes(self, schedule):
        """The non-counter: the active player who does not count (the next dealer)."""
        return [
            gettext("{name} does not count").format(name=name)
            for name, role in schedule.roles.items()
            if role == "non_counter"
        ]

    def table_warnings(self, state, rates):
        """A cup above the ledger's bound (no hand can start from it: the table can only be
        closed), or one the next hand's bagud could take above it."""
        warnings = []
        for cup, level in cup_outlook(state, rates).items():
            values = {
                "cup": self.pool_label(cup),
                "points": number_format(state.get(cup, 0), force_grouping=True),
                "bound": number_format(MAX_POINTS, force_grouping=True),
            }
            if level == "over":
                text = gettext(
                    "The {cup} holds {points} points, more than the {bound} a hand may start "
                    "from: no more hands can be recorded at this table. Close the table to "
                    "split the cups."
                )
            else:
                text = gettext(
                    "The {cup} holds {points} points: one more bagud could take it past "
                    "{bound}, and then no more hands could be recorded at this table. Close "
                    "the table soon; a cup cap in the house rules keeps the cups lower in "
                    "evenings opened later."
                )
            warnings.append((level, text.format(**values)))
        return warnings

    # --- words ---

    def reason_label(self, reason: str) -> str:
        if reason.startswith(FINE_PREFIX):
            fine = reason.removeprefix(FINE_PREFIX)
            return gettext("fine: {kind}").format(kind=FINE_LABELS.get(fine, fine))
        return str(REASON_LABELS.get(reason, reason))

    def payment_label(self, reason: str) -> str:
        if reason.startswith(FINE_PREFIX):
            fine = reason.removeprefix(FINE_PREFIX)
            return gettext("Fine: {fine}").format(fine=FINE_LABELS.get(fine, fine))
        return str(PAYMENT_LABELS.get(reason, reason))

    def outcome_words(self, outcome, *, brief=False):
        """Return the end of a hand in words; ``brief`` (a member's list of hands) leaves out
        the last trick, the refunding and the bagud cards."""
        if not outcome:
            return []
        events = self._events(outcome, brief=brief)
        if brief:
            return events
        if outcome.get("last_trick") and not outcome.get("ultimo"):
            events.append(gettext("last trick: {name}").format(name=outcome["last_trick"]))
        for cup in outcome.get("refunded") or ():
            events.append(gettext("{cup} refunded").format(cup=cup))
        return events

    @staticmethod
    def _events(outcome, *, brief):
        """Return the hand's events in words: tout, nolo, ultimo and bagud (``brief``: without
        the bagud cards)."""
        cards = OUTCOME_CARD_LABELS
        events = []
        if outcome.get("tout"):
            events.append(gettext("tout: {name}").format(name=outcome["tout"]))
        if outcome.get("nolo"):
            events.append(gettext("nolo: {name}").format(name=outcome["nolo"]))
        if outcome.get("ultimo"):
            name, card = outcome["ultimo"]
            events.append(
                gettext("ultimo: {name} ({card})").format(name=name, card=cards.get(card, card))
            )
        for name, card in outcome.get("bagud") or ():
            card = "" if brief else cards.get(card, card)
            events.append(gettext("bagud: {name} ({card})").format(name=name, card=card))
        return [e.replace(" ()", "") for e in events] if brief else events

    def hand_words(self, outcome, moves, *, brief=False):
        """Return the hand's events (tout, nolo, ultimo, bagud), then every other payment by
        its reason, with the amounts of the side of fewer members: who gained by it ("tarok meld
        (Bo +20)") or who paid ("king lost (Bo −15)", "dealer's fee (Anna −10)")."""
        if not outcome:
            return []
        events = self._events(outcome, brief=brief)
        nets: dict[str, dict[str, int]] = {}
        for source, target, points, reason in moves:
            if reason in TOLD_BY_OUTCOME:
                continue
            net = nets.setdefault(reason, {})
            for code, sign in ((source, -1), (target, 1)):
                if code not in self.pool_labels:
                    net[code] = net.get(code, 0) + sign * points
        for reason, net in nets.items():
            # The side of fewer members, who made it happen: the one who gained (a meld, the
            # last trick) or the one who paid (a king lost; a fee or a fine into the cups).
            gained = [item for item in net.items() if item[1] > 0]
            paid = [item for item in net.items() if item[1] < 0]
            parts = gained if gained and len(gained) <= len(paid) else paid or gained
            if not parts:
                continue
            amounts = ", ".join(f"{name} {signed_points(points)}" for name, points in parts)
            events.append(
                gettext("{what} ({amounts})").format(
                    what=self.reason_label(reason), amounts=amounts
                )
            )
        return events

    def preview_story(self, record, settlement, state):
        """Return the headline of the hand in the game's words, with the amounts each rule
        moved gross (a cup taken whole, then refunded), not netted per pair of accounts."""
        moves = [t if isinstance(t, dict) else t.as_dict() for t in settlement.transfers]

        def total(reason, **match):
            return sum(
                m["points"]
                for m in moves
                if m["reason"] == reason and all(m[k] == v for k, v in match.items())
            )

        def each(reason, target=None, source=None):
            for m in moves:
                if m["reason"] == reason and (target is None or m["to"] == target):
                    if source is None or m["from"] == source:
                        return m["points"]
            return 0

        def refunding():
            refunds = [m for m in moves if m["reason"] == "refund"]
            if not refunds:
                return ""
            cups = sorted({m["to"] for m in refunds})
            payers = len({m["from"] for m in refunds})
            text = gettext("refunding {points} × {members}").format(
                points=refunds[0]["points"], members=payers
            )
            if len(cups) > 1:
                text = gettext("refunding {points} × {members} into each cup").format(
                    points=refunds[0]["points"], members=payers
                )
            return " · " + text

        lines = []
        outcome = settlement.outcome
        if record.annulled:
            return [gettext("Annulled: no end-of-hand settlement, no count")]
        if outcome.tout:
            name = outcome.tout
            if "tout_cup" in {m["reason"] for m in moves}:
                lines.append(
                    gettext("Tout: {name} takes both cups ({points}) and {each} from each").format(
                        name=name, points=total("tout_cup", to=name), each=each("tout", name)
                    )
                    + refunding()
                )
            else:
                lines.append(
                    gettext("Tout: {name} gets {each} from each").format(
                        name=name, each=each("tout", name)
                    )
                )
        elif outcome.nolo:
            lines.append(
                gettext("Nolo: {name} gets {each} from each").format(
                    name=outcome.nolo, each=each("nolo", outcome.nolo)
                )
            )
        elif outcome.ultimo:
            name, card = outcome.ultimo
            template = (
                gettext("Pagat ultimo: {name} takes the pagatkop ({points}) and {each} from each")
                if card == "pagat"
                else gettext(
                    "King ultimo: {name} takes the kongekop ({points}) and {each} from each"
                )
            )
            lines.append(
                template.format(
                    name=name, points=total("ultimo_cup", to=name), each=each("ultimo", name)
                )
                + refunding()
            )
        trick = record.last_trick
        if (
            trick is not None
            and not outcome.tout
            and not outcome.nolo
            and not outcome.ultimo
            and trick.winning_card in ("king", "pagat")
        ):
            lines.append(
                gettext(
                    "Last trick: {name} with the {card}, barred by a fine: no ultimo, no last trick"
                ).format(name=trick.winner, card=OUTCOME_CARD_LABELS[trick.winning_card])
            )
        seen = set()
        for name, card in outcome.bagud:
            if (name, card) in seen:
                continue
            seen.add((name, card))
            cup = "kongekop" if card == "king" else "pagatkop"
            lines.append(
                gettext(
                    "Bagud: {name} ({card}) pays {each} to each and {points} into the {cup}"
                ).format(
                    name=name,
                    card=OUTCOME_CARD_LABELS[card],
                    each=each("bagud", source=name),
                    points=total("bagud_cup", **{"from": name}),
                    cup=self.pool_label(cup),
                )
            )
        if outcome.last_trick:
            lines.append(
                gettext("Last trick: {name} gets {each} from each").format(
                    name=outcome.last_trick, each=each("last_trick", outcome.last_trick)
                )
            )
        if record.count:
            parts = []
            for name, points in record.count.items():
                r = total("count", to=name) - total("count", **{"from": name})
                parts.append(f"{name} {points} ({signed_points(r)})")
            skip = [n for n in record.active if n not in record.count]
            text = gettext("Count: {counts}").format(counts=", ".join(parts))
            if skip:
                text += " · " + gettext("{name} does not count").format(name=skip[0])
            lines.append(text)
        return lines

    def record_lines(self, record):
        lines = super().record_lines(record)
        for meld in record.get("melds", []):
            text = str(MELD_LABELS.get(meld["type"], meld["type"]))
            if "count" in meld:
                text += f" {meld['count']}"
            if meld.get("with_pagat"):
                text += " " + gettext("with pagat")
            if "suit" in meld:
                text += " " + str(SUIT_LABELS.get(meld["suit"], meld["suit"]))
            if "missing" in meld:
                missing = CARD_LABELS.get(meld["missing"]) or SUIT_LABELS.get(meld["missing"])
                text += " (" + gettext("without {card}").format(card=missing) + ")"
            lines.append((gettext("Meld: {name}").format(name=meld["player"]), text))
        for event in record.get("during_play", []):
            lines.append((event["player"], str(EVENT_LABELS.get(event["type"], event["type"]))))
        for fine in record.get("fines", []):
            text = gettext("Fine: {fine}").format(fine=FINE_LABELS.get(fine["type"], fine["type"]))
            if fine.get("waived"):
                text += " (" + gettext("waived") + ")"
            lines.append((fine["player"], text))
        if record.get("annulled"):
            lines.append((gettext("Annulled"), gettext("yes")))
        if record.get("tout"):
            lines.append((gettext("Tout"), record["tout"]))
        if record.get("nolo"):
            lines.append((gettext("Nolo"), ", ".join(record["nolo"])))
        trick = record.get("last_trick")
        if trick:
            cards = {
                "pagat": gettext("pagat"),
                "king": gettext("king"),
                "other": gettext("plain card"),
            }
            played = ", ".join(
                f"{c['player']}: {cards.get(c['card'], c['card'])}" for c in trick["cards"]
            )
            lines.append((gettext("Last trick"), f"{trick['winner']} ({played})"))
        if record.get("count"):
            lines.append(
                (
                    gettext("Count"),
                    ", ".join(f"{name} {points}" for name, points in record["count"].items()),
                )
            )
        return lines

    # --- the entry form ---

    def entry_labels(self) -> dict:
        """Return the translated words the entry script shows on its chips and buttons."""

        def plain(mapping):
            return {key: str(value) for key, value in mapping.items()}

        return {
            "melds": plain(MELD_LABELS),
            "suits": plain(SUIT_LABELS),
            "cards": plain(CARD_LABELS),
            "events": plain(EVENT_LABELS),
            "fines": plain(FINE_LABELS),
            "missing": gettext("without {card}"),
            "with_pagat": gettext("with pagat"),
            "waived": gettext("waived"),
            "waive": gettext("Waived"),
            "bars_ultimo": gettext("bars ultimo"),
            "nolo": gettext("Nolo"),
            "tout": gettext("Tout"),
            "remove": gettext("Remove"),
            "no_count_nolo": gettext("No count: nolo"),
            "no_count_annulled": gettext("No count: annulled"),
            "no_count_tout": gettext("No count: tout"),
            "does_not_count": gettext("does not count"),
            "deals": gettext("deals"),
        }

    def entry_context(self, *, rates, seats):
        return {
            "config": {
                "rotation": rotation_map(seats, rates),
                "five_seat_rotation": rates.five_seat_rotation,
                "tout_variant": rates.tout_variant,
                "labels": self.entry_labels(),
            },
            "fine_types": [(f, FINE_LABELS[f]) for f in FINE_TYPES],
            # The fine chooser: each fine's amount per cup on the evening's rate card, and
            # whether it bars ultimo in this hand.
            "fines": [
                {
                    "type": f,
                    "label": FINE_LABELS[f],
                    "per_cup": rates.fine(f),
                    "bars_ultimo": f in FINES_BARRING_ULTIMO,
                }
                for f in FINE_TYPES
            ],
            "meld_suits": [(s, SUIT_LABELS[s]) for s in MELD_SUITS],
            "court_cards": [(c, CARD_LABELS[c]) for c in COURT_CARDS],
            "plain_suits": [(s, SUIT_LABELS[s]) for s in MELD_SUITS if s != "kings"],
            "meld_types": list(MELD_LABELS.items()),
        }

    # --- statistics ---

    def stats_tiles(self, stats):
        return [
            (
                "ultimo",
                _("Ultimo (pagat / king)"),
                f"{stats.get('ultimo_pagat', 0)} / {stats.get('ultimo_king', 0)}",
            ),
            ("bagud", _("Bagud"), str(stats.get("bagud", 0))),
            ("nolo_tout", _("Nolo / tout"), f"{stats.get('nolo', 0)} / {stats.get('tout', 0)}"),
            ("melds", _("Melds received"), str(stats.get("melds", 0))),
        ]

    # --- the rate card ---

    rate_card_labels = RATE_CARD_LABELS
    rate_card_choices = {
        key: tuple((c, CHOICE_LABELS.get(c, c)) for c in choices)
        for key, choices in OPTIONS.items()
    }
    rate_card_groups = (
        (_("Amounts"), tuple(RateCard.amount_keys())),
        (_("Fines (per cup)"), ("fines_per_cup",)),
        (_("Options"), tuple(OPTIONS)),
    )


WEB = DanishWeb()
