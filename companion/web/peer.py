"""Whom a per-address limit counts: a peer's address as a key (issue 37).

An IPv4 address counts by itself, an IPv6 one by the /64 it is in (the block one device
may pick its addresses from). Its own module, with nothing but the standard library:
the door's process (:mod:`companion.web.door`) keys the addresses it closes as the
server does.
"""

from __future__ import annotations

import functools
import ipaddress

#: Keys a per-address counter keeps before forgetting the idle ones.
MAX_KEYS = 4096


@functools.lru_cache(maxsize=MAX_KEYS)
def peer_address(remote: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """A peer's address (an IPv4-mapped IPv6 one as IPv4; a zone dropped), None if it
    is none. Kept: a flood comes from a few addresses, each connection asks twice."""
    try:
        address = ipaddress.ip_address(remote.partition("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


@functools.lru_cache(maxsize=MAX_KEYS)
def address_key(remote: str | None) -> str:
    """Whom a limit counts: the IPv4 address, or the /64 an IPv6 address is in.

    >>> address_key("192.168.1.7"), address_key("::ffff:192.168.1.7")
    ('192.168.1.7', '192.168.1.7')
    >>> address_key("2001:db8:1:2:aaaa::1")
    '2001:db8:1:2::/64'
    """
    if not remote:
        return ""
    address = peer_address(remote)
    if address is None:
        return remote
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
