"""The web side of Hungarian Tarokk: its words, its entry form, its preview and its statistics.

Django is allowed here; the engine (``engine/``) stays pure. The bids and most figures keep
their Hungarian names (Három, Kettő, Egy, Solo; dupla, volát, trull, pagát ultimó, ...):
they are the words of the game at the table, in Danish as in English.

- The entry form is ``ledger/games/hungarian/_entry.html`` with ``entry.js``: the bid, the
  declarer, his partner (or alone), the card points as one number (either side's), kontra
  on the game, figure chips and tarokk claims. The dealer comes from the rotation.
- ``preview_story`` tells each item of T with its value, the kontra factor, T and the x3 of
  a lone declarer, from the settlement; the generic preview then lists who pays whom.
- The statistics read ``Posting.outcome`` in SQL: games as declarer, as partner and alone
  (played and won), figures of the member's side made and failed, tarokk claims.
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.games.money import signed_points
from ledger.games.web import GameWeb

from .engine import rotation
from .engine.hand import CARD_POINTS_TOTAL, MAX_KONTRA
from .engine.ratecard import BIDS, FIGURES, GAME_CODE, SILENT_FIGURES

# The bids: the game's own words, with their game value G shown beside them.
BID_LABELS = {"harom": "Három", "ketto": "Kettő", "egy": "Egy", "solo": "Solo"}
# The figures: the game's own Hungarian names, whatever the reader's language (the name
# column of hungarian-tarokk.md), never translated.
FIGURE_LABELS = {
    "dupla": "Dupla játék",
    "volat": "Volát",
    "trull": "Tulétroá",
    "four_kings": "Négy király",
    "pagat_ultimo": "Pagát ultimó",
    "xxi_catch": "XXI-fogás",
    "centrum": "Centrum",
    "kismadar": "Kismadár",
    "nagymadar": "Nagymadár",
    "king_ultimo": "Király ultimó",
    "pagat_uhu": "Pagát uhu",
    "king_uhu": "Király uhu",
}
# Every setting of the rate card: its label (the game's word where it names one) and what it
# does, in a sentence.
RATE_CARD_LABELS = {
    **{
        f"bid_values.{bid}": (BID_LABELS[bid], _("The game value G of this bid, in points."))
        for bid in BIDS
    },
    "game_win_points": (
        _("card points to win"),
        _("The card points (of 94) the declarer's side needs to win the game."),
    ),
    **{
        f"figure_announced.{f}": (
            FIGURE_LABELS[f],
            _("Paid for the figure announced; each kontra doubles it."),
        )
        for f in FIGURES
    },
    **{
        f"figure_silent.{f}": (
            FIGURE_LABELS[f],
            _("Paid for the figure made without announcing it."),
        )
        for f in SILENT_FIGURES
    },
    "dupla_volat_times_bid": (
        _("Dupla játék and Volát × G"),
        _("Whether Dupla játék and Volát are worth their figure's points times the game value G."),
    ),
    "dupla_points": (
        _("card points of a dupla"),
        _("The card points with which a side makes a silent Dupla játék."),
    ),
    "tarokk_claim_8": (_("tarokk claim: 8"), _("Paid for a claim of eight tarokks.")),
    "tarokk_claim_9": (_("tarokk claim: 9"), _("Paid for a claim of nine tarokks.")),
}
RATE_CARD_GROUPS = (
    (_("Bids and the game"), ("bid_values", "game_win_points")),
    (_("Figures announced"), ("figure_announced",)),
    (_("Figures made silently"), ("figure_silent",)),
    (_("Options"), ("dupla_volat_times_bid", "dupla_points")),
    (_("Tarokk claims"), ("tarokk_claim_8", "tarokk_claim_9")),
)
KONTRA_WORDS = {1: "kontra", 2: "rekontra", 3: "szubkontra", 4: "mordkontra"}
MAX_ITEMS = 10  # items of a hand's outcome the statistics read (a hand has rarely 6)
MAX_CLAIMS = 4  # one per active player


def _kontra_word(level: int) -> str:
    return KONTRA_WORDS.get(level, "") if level else gettext("no kontra")


def _figure(ftype: str) -> str:
    return str(FIGURE_LABELS.get(ftype, ftype))


def _side_word(side: str | None) -> str:
    return gettext("declarer's side") if side == "declarer" else gettext("opponents")


REASON_LABELS = {
    "game": _("game"),
    "tarokk_claim": _("tarokk claim"),
}
PAYMENT_LABELS = {
    "game": _("The game"),
    "tarokk_claim": _("Tarokk claim"),
}


class HungarianWeb(GameWeb):
    code = GAME_CODE
    club_defaults = {"language": "hu", "currency": "HUF", "time_zone": "Europe/Budapest"}
    title = _("Hungarian Tarokk")  # the game's name in the reader's language
    entry_template = "ledger/games/hungarian/_entry.html"
    entry_script = "ledger/games/hungarian/entry.js"
    entry_styles = ("ledger/games/hungarian/entry.css",)
    quick_reasons = (_("Wrong card points"), _("Wrong partner"), _("A figure was forgotten"))
    wait_hint = _("Tap the bid, the declarer and the partner, then enter the card points.")
    reason_labels = REASON_LABELS
    payment_labels = PAYMENT_LABELS
    entry_sections = ("game", "points", "figures")
    section_of_field = {
        "annulled": "seating",
        "bid": "game",
        "declarer": "game",
        "partner": "game",
        "kontra": "game",
        "card_points": "points",
        "figures": "figures",
        "tarokk_claims": "figures",
    }
    words = {
        "open_table_lead": _(
            "Seat 4 or 5 members in the direction of play (four play each hand; at five the "
            "dealer sits out). Nobody pays to open the table."
        ),
    }
    stats_columns = (
        ("hu_declarer", _("Declarer")),
        ("hu_declarer_won", _("Declarer, won")),
        ("hu_partner", _("Partner")),
        ("hu_partner_won", _("Partner, won")),
        ("hu_alone", _("Alone")),
        ("hu_alone_won", _("Alone, won")),
        ("hu_figures_made", _("Figures made")),
        ("hu_figures_failed", _("Figures failed")),
        ("hu_claims", _("Tarokk claims")),
    )
    stats_note = _(
        "Hungarian Tarokk: declarer counts every game a member bid, alone those he played "
        "against the other three; figures are those of the member's side (the silent dupla "
        "from the card points included), made or failed; claims are his tarokk claims. Only "
        "hands as they stand after corrections count."
    )
    stats_help = {
        "hu_declarer": _("Games the member bid and played as the declarer."),
        "hu_declarer_won": _("Games the member won as the declarer."),
        "hu_partner": _("Games in which the member was the declarer's partner."),
        "hu_partner_won": _("Games the member won as the partner."),
        "hu_alone": _("Games the member played alone against the other three."),
        "hu_alone_won": _("Games the member won alone."),
        "hu_figures_made": _(
            "Figures his side made (the silent dupla from the card points included)."
        ),
        "hu_figures_failed": _("Figures of his side that failed."),
        "hu_claims": _("The member's tarokk claims."),
    }

    demo = "ledger.games.hungarian.demo.DEMO"  # "Budapesti Tarokk Kör"

    # --- words ---

    def reason_label(self, reason: str) -> str:
        if reason in FIGURE_LABELS:
            return _figure(reason)
        return super().reason_label(reason)

    def payment_label(self, reason: str) -> str:
        if reason in FIGURE_LABELS:
            return _figure(reason)
        return super().payment_label(reason)

    def outcome_words(self, outcome, *, brief=False):
        """Return a hand in words: the bid and who played it, won or lost, the figures."""
        if not outcome:
            return []
        if outcome.get("annulled"):
            return [gettext("thrown in")]
        bid = BID_LABELS.get(outcome.get("bid"), outcome.get("bid") or "")
        if outcome.get("alone"):
            who = gettext("{bid}: {declarer} alone").format(bid=bid, declarer=outcome["declarer"])
        else:
            who = gettext("{bid}: {declarer} with {partner}").format(
                bid=bid, declarer=outcome.get("declarer"), partner=outcome.get("partner")
            )
        won = outcome.get("game_won_by") == "declarer"
        words = [
            who,
            (gettext("won ({points})") if won else gettext("lost ({points})")).format(
                points=outcome.get("card_points")
            ),
        ]
        if outcome.get("kontra"):
            words.append(_kontra_word(outcome["kontra"]))
        # Every figure that was paid, made or failed, with what it brought the declarer's side.
        for item in outcome.get("items") or ():
            if item["item"] == "game" or not item.get("paid", True) or not item.get("value"):
                continue
            text = _figure(item["item"])
            if item.get("result") == "failed":
                text = gettext("{figure} failed").format(figure=text)
            if item["side"] == "opponents":
                text = gettext("{figure} (opponents)").format(figure=text)
            words.append(f"{text} {signed_points(item['value'])}")
        for claim in outcome.get("tarokk_claims") or ():
            words.append(
                gettext("{name}: {count} tarokks").format(
                    name=claim["player"], count=claim["count"]
                )
            )
        if not brief:
            words.append(f"T {signed_points(outcome.get('T') or 0)}")
        return words

    def record_lines(self, record):
        seats = record.get("seats") or []
        dealer = record.get("dealer", "")
        lines = [(gettext("Dealer"), dealer)]
        if dealer in seats and rotation.sitting_out(seats, dealer):
            lines.append((gettext("Sitting out"), ", ".join(rotation.sitting_out(seats, dealer))))
        if record.get("annulled"):
            lines.append((gettext("Annulled"), gettext("thrown in: nothing is paid")))
            return lines
        bid = record.get("bid")
        lines.append((gettext("Bid"), BID_LABELS.get(bid, bid or "")))
        lines.append((gettext("Declarer"), record.get("declarer") or ""))
        lines.append(
            (gettext("Partner"), record.get("partner") or gettext("none: the declarer is alone"))
        )
        points = record.get("card_points")
        if isinstance(points, int):
            lines.append(
                (
                    gettext("Card points"),
                    gettext("declarer's side {points}, opponents {other}").format(
                        points=points, other=CARD_POINTS_TOTAL - points
                    ),
                )
            )
        if record.get("kontra"):
            lines.append((gettext("Kontra on the game"), _kontra_word(record["kontra"])))
        for f in record.get("figures") or ():
            lines.append((_figure(f["type"]), self._figure_text(f)))
        for c in record.get("tarokk_claims") or ():
            lines.append(
                (
                    gettext("Tarokk claim: {name}").format(name=c["player"]),
                    self._claim_text(c),
                )
            )
        return lines

    @staticmethod
    def _figure_text(f: dict) -> str:
        parts = [
            _side_word(f.get("side")),
            gettext("announced") if f.get("announced") else gettext("silent"),
            gettext("made") if f.get("result") == "made" else gettext("failed"),
        ]
        if f.get("announced") and f.get("kontra"):
            parts.append(_kontra_word(f["kontra"]))
        return ", ".join(parts)

    @staticmethod
    def _claim_text(c: dict) -> str:
        when = gettext("announced") if c.get("when") == "announced" else gettext("at the end")
        return gettext("{count} tarokks, {when}").format(count=c.get("count"), when=when)

    # --- the preview ---

    def preview_story(self, record, settlement, state):
        """Return each item of T with its value, the kontra factor, T and the x3 alone."""
        if record.annulled:
            return [gettext("Thrown in: nothing is paid.")]
        g = settlement.g
        lines = []
        bid = BID_LABELS.get(record.bid, record.bid)
        if record.alone:
            lines.append(
                gettext("{bid} (G = {g}): {declarer} alone against the other three.").format(
                    bid=bid, g=g, declarer=record.declarer
                )
            )
        else:
            lines.append(
                gettext("{bid} (G = {g}): {declarer} with {partner}.").format(
                    bid=bid, g=g, declarer=record.declarer, partner=record.partner
                )
            )
        won = settlement.game_won_by == "declarer"
        lines.append(
            (
                gettext("Card points {points} to {other}: the declarer's side wins the game.")
                if won
                else gettext("Card points {points} to {other}: the opponents win the game.")
            ).format(points=record.card_points, other=CARD_POINTS_TOTAL - record.card_points)
        )
        if record.kontra:
            lines.append(
                gettext("Kontra on the game: {word}, ×{factor}.").format(
                    word=_kontra_word(record.kontra), factor=2**record.kontra
                )
            )
        for item in settlement.items:
            lines.append(self._item_line(item, record))
        total = settlement.total
        lines.append(gettext("T = {total}").format(total=signed_points(total)))
        if record.alone:
            lines.append(
                gettext(
                    "Alone: each opponent pays T to the declarer, {declarer} {total} × 3 = {net}."
                ).format(
                    declarer=record.declarer,
                    total=signed_points(total),
                    net=signed_points(3 * total),
                )
            )
        for claim in record.tarokk_claims:
            if claim.when == "announced":
                text = gettext("{name}: {count} tarokks announced, paid by each other player.")
            else:
                text = gettext("{name}: {count} tarokks at the end, paid by his partner.")
            lines.append(text.format(name=claim.player, count=claim.count))
        return lines

    def _item_line(self, item, record) -> str:
        if item.item == "game":
            name = gettext("The game")
            detail = []
            if record.kontra:
                detail.append(f"×{2**record.kontra}")
        else:
            name = _figure(item.item)
            detail = [
                gettext("silent") if item.silent else gettext("announced"),
                gettext("made") if item.result == "made" else gettext("failed"),
            ]
            if item.item == "dupla" and item.silent and item.result == "made":
                detail[0] = gettext("silent, from the card points")
            if item.kontra:
                detail.append(f"{_kontra_word(item.kontra)} ×{2**item.kontra}")
        side = _side_word(item.side)
        if not item.paid:
            return gettext("{name} ({side}, silent): not paid beside the volát").format(
                name=name, side=side
            )
        extra = f", {', '.join(detail)}" if detail else ""
        return f"{name} ({side}{extra}): {signed_points(item.value)}"

    # --- the entry form ---

    def entry_labels(self) -> dict:
        return {
            "figures": {f: _figure(f) for f in FIGURES},
            "declarer_side": gettext("declarer's side"),
            "opponents": gettext("opponents"),
            "announced": gettext("announced"),
            "silent": gettext("silent"),
            "made": gettext("made"),
            "failed": gettext("failed"),
            "kontra": {str(k): _kontra_word(k) for k in range(MAX_KONTRA + 1)},
            "remove": gettext("Remove"),
            "deals": gettext("deals"),
            "sits_out": gettext("sits out"),
            "declarer": gettext("declarer"),
            "partner": gettext("partner"),
            "points_other": gettext("the other side: {points}"),
            "tarokks": gettext("{count} tarokks"),
            "at_end": gettext("at the end"),
        }

    def entry_context(self, *, rates, seats):
        sitting = {d: list(rotation.sitting_out(seats, d)) for d in seats}
        return {
            "config": {
                "game": GAME_CODE,
                "sitting_out": sitting,
                "total_points": CARD_POINTS_TOTAL,
                "max_kontra": MAX_KONTRA,
                "silent_figures": list(SILENT_FIGURES),
                "labels": self.entry_labels(),
            },
            "bids": [(b, BID_LABELS[b], rates.game_value(b)) for b in BIDS],
            "figure_types": [(f, _figure(f), f in SILENT_FIGURES) for f in FIGURES],
            "total_points": CARD_POINTS_TOTAL,
            "kontra_levels": [(k, _kontra_word(k)) for k in range(MAX_KONTRA + 1)],
        }

    rate_card_labels = RATE_CARD_LABELS
    rate_card_groups = RATE_CARD_GROUPS

    # --- statistics ---

    def stats_tiles(self, stats):
        def pair(a, b):
            return f"{stats.get(a, 0)} / {stats.get(b, 0)}"

        return [
            ("hu_declarer", _("Declarer: played / won"), pair("hu_declarer", "hu_declarer_won")),
            ("hu_partner", _("Partner: played / won"), pair("hu_partner", "hu_partner_won")),
            ("hu_alone", _("Alone: played / won"), pair("hu_alone", "hu_alone_won")),
            (
                "hu_figures",
                _("Figures: made / failed"),
                pair("hu_figures_made", "hu_figures_failed"),
            ),
            ("hu_claims", _("Tarokk claims"), str(stats.get("hu_claims", 0))),
        ]


WEB = HungarianWeb()
