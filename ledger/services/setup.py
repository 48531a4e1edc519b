"""Club set-up writes: a club with its first admin and season, members, roles, invitations.

These rows are not ledger rows (no posting, no transfer), but every write of the set-up
screens, the ``create_club`` command and the invitation link still goes through one of
these small functions, each in one ``writing()`` transaction (as every service), validating
with the model's own rules (``full_clean``) and refusing with a ``LedgerError`` whose problems
name the fields (``LedgerError.of_validation``), writing nothing.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.games.errors import Problem, RateCardError
from ledger.games.registry import get_game, get_web
from ledger.models import Club, Member, Profile, Season
from ledger.services import people
from ledger.services.errors import ALL, LedgerError, problem
from ledger.services.ledger import writing
from ledger.services.people import Entry


def clean(obj) -> None:
    """Validate ``obj`` by its model's rules (``full_clean``); a ``LedgerError`` naming each
    field refused."""
    try:
        obj.full_clean()
    except ValidationError as error:
        raise LedgerError.of_validation(error) from error


def season_dates(today: datetime.date) -> tuple[datetime.date, datetime.date]:
    """Return the club season around ``today``: 1 August to 31 July."""
    start_year = today.year if today.month >= 8 else today.year - 1
    return datetime.date(start_year, 8, 1), datetime.date(start_year + 1, 7, 31)


def season_name(starts_on: datetime.date) -> str:
    return f"{starts_on.year}/{starts_on.year + 1}"


def validated_rate_card(game_code: str, data: dict | None) -> dict:
    """Return the complete, validated rate card of ``game_code`` from ``data``.

    Raises ``RateCardError`` (every problem naming its key) for a card the game refuses.
    """
    return get_game(game_code).rate_card(dict(data or {})).as_dict()


@writing()
def club_create(
    *,
    name: str,
    slug: str,
    game: str,
    rate_card: dict | None = None,
    price_per_point: Decimal = Decimal("0.25"),
    currency: str | None = None,
    language: str | None = None,
    time_zone: str | None = None,
    starting_jetons: int = 500,
    season_name: str,
    season_starts_on: datetime.date,
    season_ends_on: datetime.date,
    admin_user=None,
    admin_name: str | None = None,
) -> tuple[Club, Member | None, Season]:
    """Create a club of ``game`` with its house rules, its first season and its admin.

    ``currency``, ``language`` and ``time_zone`` default to the game's (its web side's
    ``club_defaults``: a Slovenian club reads Slovenian, counts in euro, in Ljubljana's time).

    ``admin_user`` (the superuser who sets the club up) gets a Member row as club admin,
    named ``admin_name`` (default: his full name or user name).
    """
    try:
        card = validated_rate_card(game, rate_card)
    except KeyError as error:
        raise LedgerError(_("Unknown game."), "game") from error
    except RateCardError as error:
        raise LedgerError.of_rules(error, "rate_card") from error
    defaults = get_web(game).club_defaults
    club = Club(
        name=name,
        slug=slug,
        game=game,
        rate_card=card,
        price_per_point=price_per_point,
        currency=currency or defaults["currency"],
        language=language or defaults["language"],
        time_zone=time_zone or defaults["time_zone"],
        starting_jetons=starting_jetons,
    )
    clean(club)
    club.save()
    season = Season(club=club, name=season_name, starts_on=season_starts_on, ends_on=season_ends_on)
    clean(season)
    season.save()
    member = None
    if admin_user is not None:
        display = admin_name or admin_user.get_full_name() or admin_user.get_username()
        member = Member(club=club, name=display, user=admin_user, role=Member.Role.ADMIN)
        clean(member)
        member.save()
        people.record(club.pk, [added_entry(member)], by=admin_user)
    return club, member, season


def added_entry(member: Member) -> Entry:
    """The log entry of a member just added: his name, role, log-in and whether active."""
    new: dict[str, object] = {"name": member.name, "role": member.role}
    if member.user is not None:
        new["login"] = member.user.get_username()
    if not member.active:
        new["active"] = False
    return Entry("added", member, new=new)


def parse_names(text: str) -> list[str]:
    """Return the names of a pasted list, one a line, blank lines and surrounding space dropped."""
    return [line.strip() for line in text.splitlines() if line.strip()]


@writing()
def members_add(*, club: Club, names, role: str = Member.Role.MEMBER, by=None) -> list[Member]:
    """Add members named ``names`` to ``club``, all or none.

    Every name is validated by the model (a pool's name is refused, a name already in the club
    or twice in the list too); the error lists each refused name with its reason.
    """
    names = [n.strip() for n in names]
    problems: list[Problem] = []
    members: list[Member] = []
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            problems.append(problem(ALL, _("%(name)s: is in the list twice"), name=name))
            continue
        seen.add(name.casefold())
        member = Member(club=club, name=name, role=role)
        try:
            member.full_clean()
        except ValidationError as error:
            reasons = LedgerError.of_validation(error).shown()
            problems.append(problem(ALL, "{name}: {reasons}", name=name, reasons=reasons))
            continue
        if Member.objects.filter(club=club, name__iexact=name).exists():
            problems.append(problem(ALL, _("%(name)s: a member of that name exists"), name=name))
            continue
        members.append(member)
    if not names:
        problems.append(problem(ALL, _("Write at least one name.")))
    if problems:
        raise LedgerError(problems=problems)
    for member in members:
        member.save()
    people.record(club.pk, [added_entry(m) for m in members], by=by)
    return members


def protected_login(member: Member) -> bool:
    """Return whether ``member``'s log-in is a superuser's or a staff user's, which only a
    superuser may change through the club's screens."""
    user = member.user
    return user is not None and (user.is_superuser or user.is_staff)


@writing()
def member_update(
    *, member: Member, role: str | None = None, active: bool | None = None, name=None, by=None
) -> Member:
    """Change a member's role, whether he is active, or his name (validated by the model).

    ``by`` is the user asking (None for a command); a member whose log-in is a superuser's or a
    staff user's is refused to anyone but a superuser (``LedgerError`` naming ``member``).
    """
    if by is not None and not by.is_superuser and protected_login(member):
        raise LedgerError(
            _("%(name)s's log-in is a site administrator's; only one may change it."),
            "member",
            name=member.name,
        )
    before = (
        Member.objects.select_for_update(of=("self",))
        .filter(pk=member.pk)
        .values_list("role", "active", "name")
        .get()
    )
    if role is not None:
        member.role = role
    if active is not None:
        member.active = active
    if name is not None:
        member.name = name.strip()
    clean(member)
    member.save()
    entries = [
        Entry(action, member, old=old, new=new)
        for action, old, new in zip(
            ("role", "active", "name"),
            before,
            (member.role, member.active, member.name),
            strict=True,
        )
        if old != new
    ]
    if entries:
        people.record(member.club_id, entries, by=by)
    return member


@writing(durable=False)  # the Django admin calls it inside its own transaction
def member_save(*, member: Member, by) -> Member:
    """Save ``member`` as the Django admin's form left it: a new member, or a change of his
    club, name, log-in (``user``), role or active flag, each logged with its value before and
    after and sealed (``services.people``). Validated by the model; ``by`` is the superuser."""
    if member.pk is None:
        clean(member)
        member.save()
        people.record(member.club_id, [added_entry(member)], by=by)
        return member
    before = Member.objects.select_for_update(of=("self",)).select_related("user").get(pk=member.pk)
    clean(member)
    member.save()
    entries = []
    if before.user_id != member.user_id:
        entries.append(
            Entry(
                "login",
                member,
                old=before.user.get_username() if before.user is not None else None,
                new=member.user.get_username() if member.user is not None else None,
            )
        )
    for action, old, new in (
        ("role", before.role, member.role),
        ("active", before.active, member.active),
        ("name", before.name, member.name),
    ):
        if old != new:
            entries.append(Entry(action, member, old=old, new=new))
    if before.club_id != member.club_id:
        people.record(before.club_id, [Entry("removed", member, old={"name": before.name})], by=by)
        entries.insert(0, added_entry(member))
    if entries:
        people.record(member.club_id, entries, by=by)
    return member


CLUB_SETTINGS = (
    "name",
    "price_per_point",
    "currency",
    "language",
    "time_zone",
    "starting_jetons",
    "publish_results",
    "publish_money",
    "idle_minutes",
    "members_may_erase",
)


@writing()
def club_update(*, club: Club, **fields) -> Club:
    """Change the club's own settings (name, price per point, currency, language, time zone,
    starting jetons, whether its results and their money are public, the minutes after which
    an unused log-in ends); a language or currency not offered is refused naming the field."""
    for key, value in fields.items():
        if key not in CLUB_SETTINGS:
            raise ValueError(key)
        setattr(club, key, value)
    clean(club)
    club.save()
    return club


@writing()
def rate_card_set(*, club: Club, rate_card: dict) -> Club:
    """Store the club's house rules: validated by its game, complete; evenings opened
    afterwards copy them, evenings already open keep theirs."""
    try:
        club.rate_card = validated_rate_card(club.game, rate_card)
    except RateCardError as error:
        raise LedgerError.of_rules(error, "rate_card") from error
    club.save(update_fields=["rate_card"])
    return club


@writing()
def season_save(*, club: Club, season: Season | None = None, **fields) -> Season:
    """Add a season to ``club`` or change one of its seasons' name and dates."""
    season = season or Season(club=club)
    if season.club_id != club.pk:
        raise LedgerError(_("The season belongs to another club."))
    for key, value in fields.items():
        setattr(season, key, value)
    clean(season)
    season.save()
    return season


@writing()
def user_language_set(*, user, language: str) -> Profile:
    """Store ``language`` as the user's own (his ``Profile``): it wins over his clubs' and his
    browser's languages. A language the site does not offer is refused naming ``language``."""
    profile, _created = Profile.objects.get_or_create(user=user)
    profile.language = language
    clean(profile)
    profile.save(update_fields=["language"])
    return profile


@writing()
def user_text_size_set(*, user, text_size: str) -> Profile:
    """Store the user's text size (``normal``, ``large``, ``larger``) on his ``Profile``; one
    not offered is refused naming ``text_size``."""
    profile, _created = Profile.objects.get_or_create(user=user)
    profile.text_size = text_size
    clean(profile)
    profile.save(update_fields=["text_size"])
    return profile


def username_free(username: str, *, except_user=None) -> bool:
    users = get_user_model().objects.filter(username__iexact=username)
    if except_user is not None:
        users = users.exclude(pk=except_user.pk)
    return not users.exists()


def invitation_refusal(member: Member) -> Problem | None:
    """Return why ``member`` may not be given an invitation link (a problem naming
    ``member``), or None when he may.

    An invitation only ever creates a new log-in for an active member who has none. Access to
    an existing log-in (a superuser's, a staff user's, one shared with another club or a plain
    member's) is restored by its owner's own password reset, by e-mail: never by a link that a
    club admin can read.
    """
    if member.user_id is not None:
        return problem(
            "member",
            _(
                "%(name)s already has a log-in; a forgotten password is reset by its owner from "
                "the log-in page (by e-mail)."
            ),
            name=member.name,
        )
    if not member.active:
        return problem("member", _("%(name)s is not active."), name=member.name)
    return None


@writing()
def invitation_create(*, member: Member, by=None, valid_for=None, now=None):
    """Create a one-time link for ``member`` to choose his first log-in; return
    ``(invitation, token)``. His older pending links stop working.

    Raises ``LedgerError`` naming ``member`` when he already has a log-in or is not active
    (``invitation_refusal``); nothing is written then.
    """
    return _invite(member, by=by, valid_for=valid_for, now=now)


def _invite(member: Member, *, by=None, valid_for=None, now=None):
    """``invitation_create`` inside the caller's transaction."""
    from ledger.models import Invitation
    from ledger.services import invitations

    member = Member.objects.select_for_update(of=("self",)).get(pk=member.pk)
    reason = invitation_refusal(member)
    if reason:
        raise LedgerError(problems=[reason])
    now = now or timezone.now()
    older = Invitation.objects.filter(member=member, used_at__isnull=True, expires__gt=now)
    cut = list(older.values_list("pk", flat=True))
    older.update(expires=now)
    nonce = invitations.new_nonce()
    token = invitations.token_of(nonce)
    invitation = Invitation.objects.create(
        member=member,
        nonce=nonce,
        token_hash=invitations.hash_of(token),
        created=now,
        expires=now + (valid_for or invitations.VALID_FOR),
        created_by=by,
    )
    people.record(
        member.club_id,
        [
            *(Entry("invitation_revoked", member, extra={"invitation": pk}) for pk in cut),
            Entry(
                "invited",
                member,
                extra={"invitation": invitation.pk, "expires": invitation.expires.isoformat()},
            ),
        ],
        by=by,
    )
    return invitation, token


@writing(durable=False)  # the Django admin's action, inside its transaction
def invitations_revoke(*, invitations, by) -> int:
    """Revoke (delete) ``invitations`` (the Django admin's), each logged; return how many."""
    from ledger.models import Invitation

    rows = list(
        Invitation.objects.select_for_update(of=("self",))
        .filter(pk__in=[i.pk for i in invitations])
        .select_related("member")
        .order_by("pk")
    )
    by_club: dict[int, list] = {}
    for invitation in rows:
        by_club.setdefault(invitation.member.club_id, []).append(
            Entry("invitation_revoked", invitation.member, extra={"invitation": invitation.pk})
        )
    Invitation.objects.filter(pk__in=[i.pk for i in rows]).delete()
    for club_id, entries in sorted(by_club.items()):
        people.record(club_id, entries, by=by)
    return len(rows)


@writing()
def password_reset_done(*, user, password: str) -> None:
    """Set ``user``'s new ``password`` (chosen with the link mailed to him) and log the reset
    in each club he is a member of (never the password)."""
    user.set_password(password)
    user.save()
    for member in Member.objects.filter(user=user).order_by("club_id"):
        people.record(member.club_id, [Entry("password_reset", member)], by=user)


@writing()
def invitations_create_missing(*, club: Club, by=None, now=None) -> list:
    """Invite, in one go, every active member of ``club`` who has no log-in: a one-time link
    each, through ``invitation_create``; return the new invitations, by member name.

    A member with a log-in is never invited. One whose link is still pending keeps it (a
    printed sheet keeps working): he is on the sheet already.
    """
    from ledger.models import Invitation

    now = now or timezone.now()
    pending = set(
        Invitation.objects.filter(
            member__club=club, used_at__isnull=True, expires__gt=now
        ).values_list("member_id", flat=True)
    )
    members = [
        m
        for m in Member.objects.filter(club=club, active=True, user__isnull=True)
        if m.pk not in pending
    ]
    members.sort(key=lambda m: m.name.casefold())
    return [_invite(m, by=by, now=now)[0] for m in members]


@writing()
def invitation_accept(*, token: str, password: str, username: str):
    """Use the link ``token`` once: create the member's new log-in named ``username`` with
    ``password``; return ``(user, invitation)``.

    Raises ``invitations.InvitationRefused`` for an unknown, used or expired link, or one whose
    member has a log-in by now (an invitation never touches an existing user); the invitation
    and member rows are locked, so two uses at once cannot both succeed. A user name that is
    taken (also by a concurrent acceptance) is a ``LedgerError`` naming ``username``.
    """
    from ledger.services import invitations

    invitation = invitations.find(token, for_update=True)
    member = Member.objects.select_for_update(of=("self",)).get(pk=invitation.member_id)
    if member.user_id is not None:
        raise invitations.InvitationRefused("has_login", club=invitation.member.club)
    taken = LedgerError(_("That user name is taken; choose another."), "username")
    if not username or not username_free(username):
        raise taken
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(username=username, password=password)
    except IntegrityError as error:
        raise taken from error
    member.user = user
    member.save(update_fields=["user"])
    invitation.used_at = timezone.now()
    invitation.save(update_fields=["used_at"])
    people.record(
        member.club_id,
        [
            Entry("invitation_used", member, extra={"invitation": invitation.pk}),
            Entry("login_created", member, new=username),
        ],
        by=user,
    )
    return user, invitation
