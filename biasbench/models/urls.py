"""URLs as they may be shown: without the credentials a user may have put in them.

Below every backend: the OpenAI-compatible backend's messages, the model options' description
(``ModelOptions.shown``) and the run's history all show an endpoint through :func:`display_url`.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def display_url(url: str) -> str:
    """``url`` without user info, query or fragment, safe to show in messages and logs."""
    if "://" not in url:
        # Without a scheme urlsplit reads "user:secret@host" as a path: drop any user info.
        return url.rsplit("@", 1)[-1].split("?", 1)[0].split("#", 1)[0]
    parts = urlsplit(url)
    hostport = parts.netloc.rsplit("@", 1)[-1]
    try:
        port = parts.port
    except ValueError:  # an invalid port: show it as written, still without credentials
        return urlunsplit((parts.scheme, hostport, parts.path, "", ""))
    host = parts.hostname or ""
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    netloc = host if port is None else f"{host}:{port}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
