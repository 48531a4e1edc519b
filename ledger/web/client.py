"""Who is asking: the client's address, and a bound on how often he may ask.

**The address.** Behind the recommended TLS proxy every request comes from the proxy, so
``REMOTE_ADDR`` alone would make all clients one (anyone could lock anyone out of the log-in).
``client_ip`` believes ``X-Forwarded-For`` only from the proxies the site names in
``TAROK_TRUSTED_PROXIES`` (addresses or networks): when the request comes from one of them,
the client is the right-most address of the header that is not itself a trusted proxy (each
proxy appends the address it was reached from, so what a client writes at the left of the
header is never taken). Without trusted proxies the header is ignored. django-axes locks by
this address (``AXES_CLIENT_IP_CALLABLE``) and the password reset is bounded by it.

(django-ipware's ``proxy_count``/``proxy_list`` read the proxies from the header's own chain
and never look at who actually connected, so it could not say "only from our proxy".)

**The bound.** ``allow(scope, key, limit, window)`` counts requests in Django's cache and says
whether this one is within ``limit`` per ``window`` seconds.
"""

from __future__ import annotations

import hashlib
import ipaddress
from functools import cache as once

from django.conf import settings
from django.core.cache import caches


@once
def _trusted(spec: tuple[str, ...]):
    return tuple(ipaddress.ip_network(item, strict=False) for item in spec)


def _address(text: str):
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def _is_trusted(address, networks) -> bool:
    return address is not None and any(address in network for network in networks)


def client_ip(request) -> str | None:
    """Return the client's address as the site's trusted proxies report it."""
    remote = request.META.get("REMOTE_ADDR", "")
    networks = _trusted(tuple(getattr(settings, "TAROK_TRUSTED_PROXIES", ())))
    if not networks or not _is_trusted(_address(remote), networks):
        return remote or None
    hops = [h for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            return remote  # a hop the proxies did not write: trust nothing of the header
        if not _is_trusted(address, networks):
            return str(address)
    return remote


def axes_client_ip(request) -> str | None:
    """django-axes's ``AXES_CLIENT_IP_CALLABLE``."""
    return client_ip(request)


def allow(scope: str, key: str, *, limit: int, window: int) -> bool:
    """Count one request of ``key`` in ``scope``; return whether it is within ``limit`` per
    ``window`` seconds (the window starts at the first request). The counts are in the shared
    cache (``CACHES["shared"]``, one table every worker reads), so a limit holds across
    workers."""
    cache = caches["shared"]
    name = "throttle:" + hashlib.sha256(f"{scope}\0{key}".encode()).hexdigest()
    cache.add(name, 0, timeout=window)
    try:
        count = cache.incr(name)
    except ValueError:  # expired between the two calls
        cache.add(name, 1, timeout=window)
        count = 1
    return count <= limit
