"""The web side of Slovenian Tarok: its words, its entry form, its preview story, its seat
marks (open radli) and its statistics. Django is allowed here; the engine stays pure.

The entry form (``ledger/games/slovenian/_entry.html`` with ``entry.js``) asks for the
contract, the declarer, the partner (the holder of the called king), the card points as one
number, ``won`` for the contracts that are won or lost, kontra, the bonuses, a valat, the
Mond and, for klop, every player's points. The dealer and forehand come from the rotation.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.games.money import signed_points
from ledger.games.web import GameWeb

from .engine import rotation
from .engine.hand import (
    CALLED_CONTRACTS,
    CARD_POINT_CONTRACTS,
    CONTRACTS,
    GAME_CONTRACTS,
    MOND_CONTRACTS,
    POOL,
    WON_CONTRACTS,
)
from .engine.ratecard import (
    BONUS_TYPES,
    CARD_POINTS_TOTAL,
    CONTRACTS_WITH_VALUE,
    GAME_CODE,
    OPTIONS,
    RateCard,
)
from .engine.settle import difference

# The game's own words, in Slovenian whatever the reader's language (slovenian-tarok.md
# section 16), as a Danish screen shows its own words in English: never translated.
CONTRACT_LABELS = {
    "klop": "Klop",
    "three": "Tri",
    "two": "Dva",
    "one": "Ena",
    "solo_three": "Solo tri",
    "solo_two": "Solo dva",
    "solo_one": "Solo ena",
    "beggar": "Berač",
    "solo_without": "Solo brez",
    "open_beggar": "Odprti berač",
    "colour_valat": "Barvni valat",
    "valat": "Valat",
}
BONUS_LABELS = {
    "trula": "Trula",
    "kings": "Kralji",
    "pagat_ultimo": "Pagat ultimo",
    "king_ultimo": "Kralj ultimo",
    "valat": "Valat",
}
KONTRA_LABELS = (_("no kontra"), "Kontra", "Re", "Sub", "Mort")
# Looked up with a line's side or result, None where the line leaves it out.
SIDE_LABELS: dict[str | None, Promise] = {
    "declarer": _("declarer's side"),
    "opponents": _("opponents"),
}
RESULT_LABELS: dict[str | None, Promise] = {"made": _("made"), "failed": _("failed")}

REASON_LABELS = {
    "hand": _("hand"),
    "mond": _("mond captured"),
    "klop": _("klop"),
    "radelc": _("radelc"),
    "split": _("split"),
}
PAYMENT_LABELS = {
    "hand": _("Hand"),
    "mond": _("Mond captured"),
    "klop": _("Klop"),
    "radelc": _("Radelc"),
    "split": _("Split of the pool"),
}
# Every setting of the rate card: its label (the game's word where it names one) and what it
# does, in a sentence.
RATE_CARD_LABELS = {
    **{
        f"contract_values.{code}": (
            CONTRACT_LABELS[code],
            _("The contract's value in points; a game played for card points adds the difference."),
        )
        for code in CONTRACTS_WITH_VALUE
    },
    "card_points_par": (
        _("card points: par"),
        _("The card points (of 70) the declarer's side needs to win."),
    ),
    "difference_round_to": (
        _("difference rounded to"),
        _("The difference from par is rounded to a multiple of this."),
    ),
    **{
        f"bonus_silent.{code}": (
            BONUS_LABELS[code],
            _("Paid for the bonus made without announcing it."),
        )
        for code in BONUS_TYPES
    },
    **{
        f"bonus_announced.{code}": (
            BONUS_LABELS[code],
            _("Paid for the bonus announced; each kontra doubles it."),
        )
        for code in BONUS_TYPES
    },
    "valat_silent": ("Valat", _("Paid for a valat made without announcing it.")),
    "valat_announced": (
        _("Valat, announced"),
        _("Paid for a valat announced; each kontra doubles it."),
    ),
    "mond_penalty": ("Mond", _("What the player whose Mond is captured pays.")),
    "radli": ("Radelci", _("Whether big games and klop hand every player a radelc.")),
    "radli_after_valat": (
        _("radelci after a valat"),
        _("Which valat lines in three to solo one hand every player a radelc."),
    ),
    "radelc_penalty": (
        _("radelc penalty"),
        _("What each radelc still open at the close costs its member, into the pool."),
    ),
    "klop_value": (_("klop: value"), _("What a klop pays a player who took no trick.")),
    "klop_limit": (
        _("klop: limit"),
        _("A player with more card points than this in a klop pays the klop value."),
    ),
    "klop_round_to": (
        _("klop: rounded to"),
        _("Klop scores are rounded to a multiple of this (1: unrounded)."),
    ),
    "split_unit": (
        _("split unit"),
        _("At the close the pool is shared out in whole units of this."),
    ),
}
RATE_CARD_GROUPS = (
    (_("Contract values"), ("contract_values",)),
    (_("Card points"), ("card_points_par", "difference_round_to")),
    (_("Bonuses made silently"), ("bonus_silent",)),
    (_("Bonuses announced"), ("bonus_announced",)),
    (_("Valat and Mond"), ("valat_silent", "valat_announced", "mond_penalty")),
    ("Radelci", ("radli", "radli_after_valat", "radelc_penalty")),
    ("Klop", ("klop_value", "klop_limit", "klop_round_to")),
    (_("The close"), ("split_unit",)),
)
# The choices of ``radli_after_valat``, in words.
RADLI_AFTER_VALAT_LABELS = {
    "made": _("a valat made (either side)"),
    "made_or_failed": _("a valat made, or announced and failed (mytja)"),
    "no": _("no valat line (erikbozic)"),
}
RADELC_MARK = "⊕"
MAX_BONUS_LINES = len(BONUS_TYPES)
# The preview tells D by the default rule; the amounts themselves are the evening's.
DEFAULT_RATES = RateCard()


def contract_word(code) -> str:
    return str(CONTRACT_LABELS.get(code, code or ""))


def kontra_word(level: int) -> str:
    return str(KONTRA_LABELS[level]) if 0 <= level < len(KONTRA_LABELS) else str(level)


def _bonus_text(line: dict) -> str:
    """Return one bonus (or valat) line of a record in words."""
    words = [str(BONUS_LABELS.get(line.get("type", "valat"), line.get("type") or ""))]
    words.append(str(SIDE_LABELS.get(line.get("side"), line.get("side") or "")))
    words.append(gettext("announced") if line.get("announced") else gettext("silent"))
    words.append(str(RESULT_LABELS.get(line.get("result"), line.get("result") or "")))
    if line.get("kontra"):
        words.append(kontra_word(line["kontra"]))
    return ", ".join(words)


class SlovenianWeb(GameWeb):
    code = GAME_CODE
    club_defaults = {"language": "sl", "currency": "EUR", "time_zone": "Europe/Ljubljana"}
    title = _("Slovenian Tarok")  # the game's name in the reader's language
    entry_template = "ledger/games/slovenian/_entry.html"
    entry_script = "ledger/games/slovenian/entry.js"
    entry_styles = ("ledger/games/slovenian/entry.css",)
    quick_reasons = (
        _("Wrong card points"),
        _("Wrong contract or declarer"),
        _("A bonus was forgotten"),
    )
    reason_labels = REASON_LABELS
    payment_labels = PAYMENT_LABELS
    pool_labels = {POOL: _("pool")}
    pool_classes = {POOL: "pool"}
    role_labels = {"klop": CONTRACT_LABELS["klop"]}
    entry_sections = ("contract", "points", "bonuses")
    section_of_field = {
        "annulled": "seating",
        "contract": "contract",
        "declarer": "contract",
        "partner": "contract",
        "won": "contract",
        "kontra": "contract",
        "card_points": "points",
        "klop": "points",
        "bonuses": "bonuses",
        "valat": "bonuses",
        "mond_captured": "bonuses",
        "radli_before": "general",
    }
    words = {
        "open_table_lead": _(
            "Seat 3 to 5 members in the direction of play. Nobody pays to open the table: the "
            "pool starts at 0 and no one has radelci."
        ),
        "pools_after": _("The pool after"),
        "before_close": _("From the hands"),
        "balances_before_close": _("Balances from the hands"),
        "reopen_explains": _(
            "Reopening reverses every table's radelc penalties and split of the pool; the "
            "reason is logged."
        ),
        "pools_not_split": _("the pool is not split yet"),
        "close_explains": _(
            "Closing charges each member's open radelci to the pool, then splits the pool among "
            "everyone who played at the table (what does not divide evenly goes to the member "
            "who did worst), writes each member's result in points and money, and locks the "
            "evening."
        ),
    }
    # The close's lines: each member's radelc penalty (his open radelci at the close), then
    # his share of the pool (section 12).
    close_columns = (("radelc", _("Radelc penalty")), ("split", _("Share of the pool")))
    wait_hint = _("Tap the contract, the declarer and the partner, then enter the card points.")
    # At a table of three nobody calls a king: there is no partner to tap.
    wait_hint_three = _("Tap the contract and the declarer, then enter the card points.")

    def wait_hint_for(self, seats):
        return self.wait_hint_three if seats == 3 else self.wait_hint

    stats_columns = (
        ("sl_declared", _("Declarer")),
        ("sl_declared_won", _("Won as declarer")),
        ("sl_partner", _("Partner")),
        ("sl_partner_won", _("Won as partner")),
        ("sl_bonuses", _("Hands with a bonus made")),
        ("sl_radli", _("Radelci received")),
        ("sl_radli_used", _("Radelci used")),
        ("sl_klop", _("Klop")),
        ("sl_klop_points", _("Klop points received")),
    )
    stats_note = _(
        "Slovenian Tarok: declarer and partner count the contracts played and won; bonuses "
        "made count the hands in which the member's side made a bonus as the declarer's side; "
        "radelci received are the radelci handed out to him, radelci used those crossed off after "
        "a won hand; klop points are what klop paid him. Only hands as they stand after "
        "corrections count."
    )
    stats_help = {
        "sl_declared": _("Hands in which the member played a contract as the declarer."),
        "sl_declared_won": _("Contracts the member won as the declarer."),
        "sl_partner": _("Hands in which the member was the declarer's called partner."),
        "sl_partner_won": _("Contracts the member won as the partner."),
        "sl_bonuses": _("Hands in which the member's side, the declarer's, made a bonus."),
        "sl_radli": _(
            "Radelci handed out to the member: one for each hand giving radelci he played."
        ),
        "sl_radli_used": _("Radelci the member crossed off after a won hand as the declarer."),
        "sl_klop": _("Hands of klop the member played."),
        "sl_klop_points": _("Points klop paid the member (a number of points, not of hands)."),
    }

    demo = "ledger.games.slovenian.demo.DEMO"  # "Ljubljana Tarok Klub"

    # --- the table screen and the preview ---

    def seat_marks(self, state, name):
        radli = int((state or {}).get(name, 0) or 0)
        if radli <= 0:
            return []
        if radli <= 3:
            return [RADELC_MARK * radli]
        return [gettext("radelci {n}").format(n=radli)]

    def preview_story(self, record, settlement, state):
        outcome = settlement.outcome_data
        lines = []
        if outcome.get("annulled"):
            return [gettext("Annulled: nothing is paid and the radelci stay.")]
        contract = outcome.get("contract")
        if contract == "klop":
            lines.append(gettext("Klop: everyone plays for himself."))
            for player, result in (outcome.get("klop") or {}).items():
                text = gettext("{name}: {points} card points").format(
                    name=player, points=result["card_points"]
                )
                if not result["took_trick"]:
                    text += " (" + gettext("no trick") + ")"
                lines.append(text + f" → {signed_points(result['score'])}")
        else:
            who = outcome.get("declarer")
            if outcome.get("partner"):
                who = f"{who} + {outcome['partner']}"
            lines.append(
                gettext("{contract}: {who}").format(contract=contract_word(contract), who=who)
            )
            if contract in GAME_CONTRACTS and record.card_points is not None:
                d = abs(record.card_points - DEFAULT_RATES.card_points_par)
                lines.append(
                    gettext("Card points {points}: difference {raw} → D = {d}").format(
                        points=record.card_points,
                        raw=d,
                        d=difference(record.card_points, DEFAULT_RATES),
                    )
                )
            for item in outcome.get("items") or ():
                if item["item"] == "game":
                    lines.append(gettext("Game {value}").format(value=signed_points(item["value"])))
                else:
                    label = str(BONUS_LABELS.get(item["item"], item["item"]))
                    how = gettext("announced") if item.get("announced") else gettext("silent")
                    lines.append(
                        gettext("{bonus} ({side}, {how}, {result}) {value}").format(
                            bonus=label,
                            side=SIDE_LABELS.get(item.get("side"), ""),
                            how=how,
                            result=RESULT_LABELS.get(item.get("result"), ""),
                            value=signed_points(item["value"]),
                        )
                    )
            if outcome.get("kontra", 1) > 1:
                lines.append(
                    gettext("Kontra ×{factor} ({word})").format(
                        factor=outcome["kontra"], word=kontra_word(record.kontra)
                    )
                )
            lines.append(gettext("H = {h}").format(h=signed_points(outcome.get("H", 0))))
            if outcome.get("radelc_doubled"):
                text = gettext("Radelc: doubled to {paid}").format(
                    paid=signed_points(outcome.get("paid", 0))
                )
                if outcome.get("radelc_crossed"):
                    text += "; " + gettext("won, one radelc is crossed off")
                lines.append(text)
            if outcome.get("mond"):
                lines.append(gettext("Mond captured: {name}").format(name=outcome["mond"]))
        if outcome.get("radli_given"):
            lines.append(gettext("Every player receives a radelc."))
        return lines

    # --- words ---

    def outcome_words(self, outcome, *, brief=False):
        if not outcome:
            return []
        if outcome.get("annulled"):
            return [gettext("annulled")]
        contract = outcome.get("contract")
        words = []
        if contract == "klop":
            words.append(contract_word(contract))  # the game's word, as every contract
        elif contract:
            text = contract_word(contract) + ": " + (outcome.get("declarer") or "")
            if outcome.get("partner"):
                text += " + " + outcome["partner"]
            if outcome.get("won") is not None:
                text += " (" + (gettext("won") if outcome["won"] else gettext("lost")) + ")"
            words.append(text)
            if not brief and outcome.get("kontra", 1) > 1:
                words.append(gettext("kontra ×{factor}").format(factor=outcome["kontra"]))
            if outcome.get("radelc_crossed"):
                words.append(
                    gettext("radelc crossed off: {name}").format(name=outcome.get("declarer"))
                )
            elif outcome.get("radelc_doubled") and not brief:
                words.append(gettext("radelc doubles"))
            # Every bonus (and a valat) that was paid, with what it brought the declarer's side.
            for item in outcome.get("items") or ():
                if item["item"] == "game" or not item.get("value"):
                    continue
                text = str(BONUS_LABELS.get(item["item"], item["item"]))
                if item.get("result") == "failed":
                    text = gettext("{figure} failed").format(figure=text)
                if item.get("side") == "opponents":
                    text = gettext("{figure} (opponents)").format(figure=text)
                words.append(f"{text} {signed_points(item['value'])}")
            if outcome.get("mond"):
                words.append(gettext("Mond: {name}").format(name=outcome["mond"]))
        if outcome.get("radli_given"):
            words.append(gettext("radelc to every player"))
        return words

    def record_lines(self, record):
        lines = [(gettext("Dealer"), record.get("dealer", ""))]
        if record.get("annulled"):
            lines.append((gettext("Annulled"), gettext("yes")))
            return lines
        contract = record.get("contract")
        lines.append((gettext("Contract"), contract_word(contract)))
        if contract == "klop":
            for name, result in (record.get("klop") or {}).items():
                text = str(result.get("card_points"))
                if not result.get("took_trick", True):
                    text += " (" + gettext("no trick") + ")"
                lines.append((name, text))
            return lines
        lines.append((gettext("Declarer"), record.get("declarer") or ""))
        if contract in CALLED_CONTRACTS:
            lines.append((gettext("Partner"), record.get("partner") or gettext("alone")))
        if record.get("card_points") is not None:
            lines.append((gettext("Card points"), str(record["card_points"])))
        if record.get("won") is not None:
            lines.append((gettext("Won"), gettext("yes") if record["won"] else gettext("no")))
        if record.get("kontra"):
            lines.append((gettext("Kontra"), kontra_word(record["kontra"])))
        for line in record.get("bonuses") or ():
            lines.append((gettext("Bonus"), _bonus_text(line)))
        if record.get("valat"):
            lines.append((gettext("Valat"), _bonus_text({**record["valat"], "type": "valat"})))
        if record.get("mond_captured"):
            lines.append((gettext("Mond captured"), record["mond_captured"]))
        return lines

    # --- the entry form ---

    def entry_labels(self) -> dict:
        return {
            "kontra": [str(k) for k in KONTRA_LABELS],
            "alone": gettext("alone"),
            "deals": gettext("deals"),
            "forehand": gettext("forehand"),
            "sits_out": gettext("sits out"),
        }

    def entry_context(self, *, rates, seats):
        seats = list(seats)
        dealers = {}
        for dealer in seats:
            dealers[dealer] = {
                "active": list(rotation.active_players(seats, dealer)),
                "forehand": rotation.forehand(seats, dealer),
                "sitting_out": list(rotation.sitting_out(seats, dealer)),
            }
        contracts = [
            {
                "code": code,
                "label": str(CONTRACT_LABELS[code]),
                "value": rates.contract_value(code) if code != "klop" else None,
            }
            for code in CONTRACTS
        ]
        return {
            "config": {
                "game": GAME_CODE,
                "rotation": dealers,
                "called": list(CALLED_CONTRACTS),
                "card_points": list(CARD_POINT_CONTRACTS),
                "won": list(WON_CONTRACTS),
                "bonus_contracts": list(GAME_CONTRACTS),
                "mond_contracts": list(MOND_CONTRACTS),
                "bonus_types": list(BONUS_TYPES),
                "total": CARD_POINTS_TOTAL,
                "labels": self.entry_labels(),
            },
            "contracts": contracts,
            "bonus_lines": [(b, BONUS_LABELS[b]) for b in (*BONUS_TYPES, "valat")],
            "kontra_labels": [str(k) for k in KONTRA_LABELS],
        }

    rate_card_labels = RATE_CARD_LABELS
    rate_card_choices = {
        key: tuple((c, RADLI_AFTER_VALAT_LABELS[c]) for c in choices)
        for key, choices in OPTIONS.items()
    }
    rate_card_groups = RATE_CARD_GROUPS

    # --- statistics ---

    def stats_tiles(self, stats):
        def pair(a, b):
            return f"{stats.get(a, 0)} / {stats.get(b, 0)}"

        return [
            ("sl_declarer", _("Declarer (played / won)"), pair("sl_declared", "sl_declared_won")),
            ("sl_partner", _("Partner (played / won)"), pair("sl_partner", "sl_partner_won")),
            ("sl_bonuses", _("Bonuses made"), str(stats.get("sl_bonuses", 0))),
            ("sl_radli", _("Radelci (received / used)"), pair("sl_radli", "sl_radli_used")),
            ("sl_klop", _("Klop (played / points received)"), pair("sl_klop", "sl_klop_points")),
        ]


WEB = SlovenianWeb()
