"""Any OpenAI-compatible HTTP endpoint (OpenAI, vLLM, Ollama, llama.cpp server, LM Studio...).

Spoken directly with aiohttp rather than through the openai SDK: one shared ``ClientSession``
whose connection pool is sized to the runner's concurrency keeps the harness cost per request
small enough for thousands of requests per second against a local server.

The API key is read from the environment on every call (``OPENAI_API_KEY``, or the variable
named by ``api_key_env``) and sent only as the ``Authorization`` header: it is never stored on
the backend, in ``describe()``, in a repr, in an error message or in the response store.
Credentials in the base URL (``http://user:secret@host/v1``) are taken out of it and sent as
HTTP Basic auth; they are redacted, like the key, from everything stored or printed (in any
form a server may echo them: the password, ``user:secret``, their percent-encoded forms and the
Basic header's base64).
"""

from __future__ import annotations

import asyncio
import base64
import email.utils
import json
import os
import time
from typing import Any, Literal
from urllib.parse import unquote, urlsplit, urlunsplit

import aiohttp

from biasbench.errors import ModelSpecError
from biasbench.models.base import (
    EndpointUnreachableError,
    Generation,
    GenerationParams,
    ModelBackend,
    PermanentModelError,
    Prompt,
    TransientModelError,
    UnusableAnswerError,
    normalise_finish_reason,
    text_from_content,
)
from biasbench.models.options import BackendOption, ModelOptions
from biasbench.models.redaction import (
    Secret,
    SecretForms,
    redact_text,
    redact_value,
    secret_matcher,
)
from biasbench.models.urls import display_url as display_url
from biasbench.output_health import REDACTED

ApiKind = Literal["chat", "completions"]

# 501 Not Implemented and 505 HTTP Version Not Supported will not heal on retry.
_PERMANENT_5XX = frozenset({501, 505})
_TRANSIENT_4XX = frozenset({408, 409, 429})
_DEFAULT_POOL = 64
_MAX_RESPONSE_BYTES = 64 << 20
# Request fields the backend sets itself; extra fields may not replace them.
_OWNED_FIELDS = frozenset({"model", "messages", "prompt", "stream", "seed", "n"})

OPENAI_API_BASE_URL = "https://api.openai.com/v1"
"""OpenAI's own endpoint: where ``openai:NAME`` goes when neither ``--base-url`` nor
``$OPENAI_BASE_URL`` names another (the openai SDK's default, in the same order)."""
BASE_URL_ENV = "OPENAI_BASE_URL"


def resolve_base_url(given: str | None, environ: Any = None) -> tuple[str, str]:
    """The base URL of an ``openai:NAME`` model and where it came from: ``--base-url`` when
    given, else ``$OPENAI_BASE_URL`` (an empty value counts as unset), else OpenAI's endpoint."""
    env = os.environ if environ is None else environ
    if given:
        return given, "--base-url"
    if env.get(BASE_URL_ENV, "").strip():
        return env[BASE_URL_ENV].strip(), f"${BASE_URL_ENV}"
    return OPENAI_API_BASE_URL, "OpenAI's API (no --base-url or $OPENAI_BASE_URL)"


def is_openai_api(base_url: str) -> bool:
    """Whether ``base_url`` is OpenAI's own API, which rejects fields it does not define."""
    try:
        return (urlsplit(base_url).hostname or "").lower() == urlsplit(OPENAI_API_BASE_URL).hostname
    except ValueError:
        return False


def parse_retry_after(headers: Any) -> float | None:
    """Seconds to wait according to ``retry-after-ms`` or ``Retry-After`` (seconds or a date)."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = headers.get("Retry-After")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class OpenAIBackend(ModelBackend):
    """A model behind an OpenAI-compatible ``/chat/completions`` or ``/completions`` endpoint.

    ``base_url`` is what the OpenAI SDK calls the base URL, usually ending in ``/v1``
    (``http://localhost:8000/v1`` for vLLM, ``http://localhost:11434/v1`` for Ollama).
    """

    kind = "openai"
    summary = (
        "an OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp server, SGLang, OpenAI...); "
        "--base-url (default: $OPENAI_BASE_URL, else OpenAI's API), --api "
        "chat|completions, key from $OPENAI_API_KEY or --api-key-env"
    )
    spec_syntax = "openai:NAME"
    model_options = (
        BackendOption(
            "timeout",
            "float",
            "seconds to wait for one answer (then retried)",
            default=120.0,
            minimum=0.001,
        ),
        BackendOption(
            "extra_body",
            "json",
            "a JSON object of extra request fields, e.g. "
            "'{\"repetition_penalty\": 1.1}'; it wins over the request's own fields",
            default=None,
            changes_answers=True,
        ),
        BackendOption(
            "field.*",
            "any",
            "one extra request field: -M field.NAME=VALUE (VALUE "
            "read as number, bool or JSON where it looks like one); merged into "
            "extra_body",
            changes_answers=True,
        ),
    )
    can_score_options = False  # chat endpoints give no prompt log-likelihoods

    @classmethod
    def from_spec(cls, arg: str | None, options: ModelOptions) -> OpenAIBackend:
        if not arg:
            raise ModelSpecError("openai needs a model name: --model openai:NAME")
        base_url, source = resolve_base_url(options.base_url)
        if options.api not in ("chat", "completions"):
            raise ModelSpecError(f"--api must be chat or completions, not {options.api!r}")
        args = cls.check_model_args(options.model_args)
        extra = dict(args.get("extra_body") or {})
        for key, value in args.items():
            if key.startswith("field."):
                name = key.removeprefix("field.")
                if name in extra:
                    raise ModelSpecError(
                        f"openai: request field {name!r} given by both -M extra_body and -M {key}"
                    )
                extra[name] = value
        official = is_openai_api(base_url)
        if official and not os.environ.get(options.api_key_env):
            raise ModelSpecError(
                f"openai:{arg} goes to {source}: {OPENAI_API_BASE_URL}, which "
                f"needs an API key in ${options.api_key_env} (or name the "
                "variable with --api-key-env; --base-url or $OPENAI_BASE_URL "
                "for another endpoint)"
            )
        try:
            # OpenAI's endpoint rejects top_k, min_p and repetition_penalty as unknown fields.
            return cls(
                arg,
                base_url,
                api=options.api,  # type: ignore[arg-type]
                api_key_env=options.api_key_env,
                sampler_extras=options.sampler_extras and not official,
                timeout_s=args.get("timeout", 120.0),
                extra_body=extra or None,
            )
        except ModelSpecError as exc:
            if source == "--base-url":
                raise
            raise ModelSpecError(f"{source}: {exc}") from None

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        api: ApiKind = "chat",
        api_key_env: str = "OPENAI_API_KEY",
        timeout_s: float = 120.0,
        extra_body: dict[str, Any] | None = None,
        max_connections: int | None = None,
        max_response_bytes: int = _MAX_RESPONSE_BYTES,
        sampler_extras: bool = True,
    ) -> None:
        if api not in ("chat", "completions"):
            raise ModelSpecError(f"api must be 'chat' or 'completions', not {api!r}")
        if not base_url.startswith(("http://", "https://")):
            raise ModelSpecError(
                f"base URL must start with http:// or https://: {display_url(base_url)}"
            )
        parts = urlsplit(base_url)
        try:
            parts.port  # noqa: B018 - raises on a port that is not a number in 0-65535
        except ValueError:
            raise ModelSpecError(f"base URL has an invalid port: {display_url(base_url)}") from None
        if not parts.hostname:
            raise ModelSpecError(f"base URL has no host: {display_url(base_url)}")
        self._credentials: Secret = Secret(("", ""))  # (user, password) from the URL
        self._auth: Secret | None = None  # the Basic Authorization header value
        if parts.username is not None or parts.password is not None:
            user, password = unquote(parts.username or ""), unquote(parts.password or "")
            if os.environ.get(api_key_env):
                raise ModelSpecError(
                    f"base URL {display_url(base_url)} carries credentials and ${api_key_env} "
                    f"is set too: use one of them (unset {api_key_env}, or remove user:password "
                    f"from the URL)"
                )
            pair = f"{user}:{password}".encode()
            self._auth = Secret("Basic " + base64.b64encode(pair).decode("ascii"))
            self._credentials = Secret((user, password))
            # The URL requests go to carries no credentials: library errors that quote it
            # cannot leak them.
            base_url = urlunsplit(
                (
                    parts.scheme,
                    parts.netloc.rsplit("@", 1)[-1],
                    parts.path,
                    parts.query,
                    parts.fragment,
                )
            )
        self.model_name = model
        self.base_url = base_url.rstrip("/")
        self.api: ApiKind = api
        self.mode = "chat" if api == "chat" else "completion"
        self.api_key_env = api_key_env
        self.timeout_s = timeout_s
        self.extra_body = dict(extra_body or {})
        owned = sorted(set(self.extra_body) & _OWNED_FIELDS)
        if owned:
            # The backend writes these itself (the prompt, the model, one seed per request, a
            # non-streamed body): an extra field would be overwritten or break reading answers.
            raise ModelSpecError(
                f"openai: extra request field(s) {', '.join(owned)} cannot be "
                "set; the backend sends them itself"
            )
        self.max_connections = max_connections
        """Size of the connection pool; the runner sets it to its concurrency."""
        self.max_response_bytes = max_response_bytes
        """A larger answer body is not read (memory stays bounded) and is stored as failed."""
        self.sampler_extras = sampler_extras
        """Send top_k, min_p and repetition_penalty (not OpenAI API fields; vLLM, llama.cpp's
        server and most compatible servers read them). Off for a strict endpoint that rejects
        unknown fields: the server's own values then apply, and the description says so."""
        self.endpoint = display_url(self.base_url)
        """The base URL without credentials, for messages and manifests."""
        self._url = self.base_url + ("/chat/completions" if api == "chat" else "/completions")
        self._session: aiohttp.ClientSession | None = None
        self._session_loop: asyncio.AbstractEventLoop | None = None
        # Decoding parameters are the same object for a whole run: build their JSON part once.
        self._params_cache: tuple[GenerationParams, dict[str, Any]] | None = None

    @property
    def model_id(self) -> str:
        return self.model_name

    def describe(self) -> dict[str, Any]:
        described = super().describe()
        if self.extra_body:
            described["extra_body"] = self.extra_body
        if not self.sampler_extras:  # the server's top_k/min_p/penalty: another sampler
            described["sampler_extras"] = False
        return described

    def __repr__(self) -> str:
        return (
            f"OpenAIBackend(model={self.model_name!r}, base_url={self.endpoint!r}, "
            f"api={self.api!r}, api_key_env={self.api_key_env!r})"
        )

    def set_concurrency(self, concurrency: int) -> None:
        """Size the connection pool for ``concurrency`` requests in flight (before first use)."""
        self.max_connections = max(1, concurrency)

    # -- HTTP ----------------------------------------------------------------------------------

    def _get_session(self) -> aiohttp.ClientSession:
        loop = asyncio.get_running_loop()
        if self._session is None or self._session_loop is not loop or self._session.closed:
            # A session belongs to one event loop; a backend reused under a new asyncio.run()
            # gets a fresh one (the old loop is gone, so its session cannot be closed there).
            connector = aiohttp.TCPConnector(
                limit=self.max_connections or _DEFAULT_POOL, limit_per_host=0, ttl_dns_cache=300
            )
            timeout = aiohttp.ClientTimeout(
                total=self.timeout_s, sock_connect=min(self.timeout_s, 10.0)
            )
            self._session = aiohttp.ClientSession(
                connector=connector,
                timeout=timeout,
                cookie_jar=aiohttp.DummyCookieJar(),
                raise_for_status=False,
            )
            self._session_loop = loop
        return self._session

    async def open(self) -> None:
        """Create the HTTP session now (otherwise it is created on the first request)."""
        self._get_session()

    async def aclose(self) -> None:
        session, self._session, self._session_loop = self._session, None, None
        if session is not None and not session.closed:
            await session.close()

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_env)
        if key:
            if self._auth is not None:
                raise PermanentModelError(
                    f"base URL {self.endpoint} carries credentials and ${self.api_key_env} is "
                    f"set too: use one of them"
                )
            headers["Authorization"] = f"Bearer {key}"
        elif self._auth is not None:
            headers["Authorization"] = self._auth.value
        return headers

    def _forms(self) -> SecretForms:
        key = os.environ.get(self.api_key_env)
        cache = getattr(self, "_forms_cache", None)  # a Secret: never shown by vars() or repr
        if cache is not None and cache.value[0] == key:
            forms: SecretForms = cache.value[1]
            return forms
        user, password = self._credentials.value
        forms = secret_matcher(
            key=key if key and len(key) >= 4 else None, user=user, password=password
        )
        self._forms_cache = Secret((key, forms))
        return forms

    def redact(self, message: str) -> str:
        """``message`` without the API key or the URL's credentials, in any encoding of
        :func:`~biasbench.models.redaction.secret_matcher` (encoded, case-changed, split, reversed,
        hex, HTML-escaped), should a server or a library echo them back."""
        return redact_text(message, self._forms(), "***")[0]

    _redact = redact

    def _params_fields(self, params: GenerationParams) -> dict[str, Any]:
        cached = self._params_cache
        if cached is not None and cached[0] is params:
            return cached[1]
        fields: dict[str, Any] = {
            "model": self.model_name,
            "temperature": params.temperature,
            "max_tokens": params.max_tokens,
            "top_p": params.top_p,
        }
        extras = {
            "top_k": params.top_k,
            "min_p": params.min_p,
            "repetition_penalty": params.repetition_penalty,
        }
        if self.sampler_extras:
            # Not in OpenAI's API, but read by vLLM, llama.cpp's server, SGLang, LM Studio...:
            # without them a server applies its own defaults (llama.cpp's: top_k 40, min_p 0.05).
            fields.update(extras)
        elif extras != {"top_k": 0, "min_p": 0.0, "repetition_penalty": 1.0}:
            raise PermanentModelError(
                f"top_k/min_p/repetition_penalty {extras} cannot be sent to {self.endpoint} "
                f"with sampler extras off (strict OpenAI API); turn them on or use the defaults"
            )
        if params.stop:
            fields["stop"] = list(params.stop)
        fields.update(self.extra_body)
        self._params_cache = (params, fields)
        return fields

    def request_body(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> dict[str, Any]:
        """The JSON body sent for ``prompt`` (public so tests and dry runs can show it)."""
        body = dict(self._params_fields(params))
        if self.api == "chat":
            body["messages"] = prompt.as_chat()
        else:
            body["prompt"] = prompt.completion
        if seed is not None:
            body["seed"] = seed
        return body

    async def generate(
        self, prompt: Prompt, params: GenerationParams, seed: int | None
    ) -> Generation:
        body = json.dumps(self.request_body(prompt, params, seed), ensure_ascii=False).encode(
            "utf-8"
        )
        session = self._get_session()
        try:
            async with session.post(self._url, data=body, headers=self._headers()) as response:
                raw = await self._read_body(response)
                status = response.status
                if status != 200:
                    self._raise_for_status(status, raw, response.headers)
        except aiohttp.ClientConnectorError as exc:
            # Refused, unknown host, TLS handshake failure: nothing is listening there.
            reason = exc.os_error.strerror or type(exc.os_error).__name__
            raise EndpointUnreachableError(
                self._redact(f"cannot reach {self.endpoint}: {reason}"), self.endpoint
            ) from None
        except aiohttp.ConnectionTimeoutError:
            raise EndpointUnreachableError(
                f"cannot reach {self.endpoint}: connection timed out", self.endpoint
            ) from None
        except (aiohttp.InvalidURL, ValueError) as exc:  # a URL or header aiohttp refuses
            raise PermanentModelError(
                self._redact(f"cannot send to {self.endpoint}: {type(exc).__name__}: {exc}")
            ) from None
        except TimeoutError:  # before ClientError: aiohttp's read timeouts are both
            raise TransientModelError(
                f"no answer from {self.endpoint} within {self.timeout_s:g} s"
            ) from None
        except aiohttp.ClientError as exc:  # dropped connection, truncated or garbled answer
            detail = str(exc) or type(exc).__name__
            raise TransientModelError(
                self._redact(f"connection to {self.endpoint} failed: {detail}")
            ) from None
        return self._parse(raw, prompt)

    async def _read_body(self, response: aiohttp.ClientResponse) -> bytes:
        """The body, read up to ``max_response_bytes``; beyond that the answer is unusable."""
        limit = self.max_response_bytes
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.content.iter_any():
            size += len(chunk)
            if size > limit:
                # Redacted before the cut (a secret across the cut would keep its start); the
                # window is long enough that any secret starting in the first 200 is whole.
                head = self._redact(b"".join(chunks)[:8192].decode("utf-8", "replace"))[:200]
                raise UnusableAnswerError(
                    self._redact(
                        f"answer from {self.endpoint} is larger than {limit} bytes (HTTP "
                        f"{response.status}); not read further"
                    ),
                    raw=head,
                )
            chunks.append(chunk)
        return b"".join(chunks)

    def _raise_for_status(self, status: int, raw: bytes, headers: Any) -> None:
        # Redacted before it is cut: a cut through a secret would leave its start unredacted.
        detail = self._redact(raw.decode("utf-8", "replace")).strip()[:500]
        try:
            payload = json.loads(raw)
            error = payload.get("error") if isinstance(payload, dict) else None
            if isinstance(error, dict) and error.get("message"):
                detail = self._redact(str(error["message"]))[:500]
            elif isinstance(error, str):
                detail = self._redact(error)[:500]
        except (ValueError, RecursionError):
            pass
        message = self._redact(f"HTTP {status} from {self.endpoint}: {detail}")
        if status in _TRANSIENT_4XX or (status >= 500 and status not in _PERMANENT_5XX):
            raise TransientModelError(message, retry_after=parse_retry_after(headers))
        if status == 401 and not os.environ.get(self.api_key_env):
            message += f" (no API key: set the environment variable {self.api_key_env})"
        raise PermanentModelError(message)

    def _parse(self, raw: bytes, prompt: Prompt) -> Generation:
        try:
            payload = json.loads(raw)
            choice = payload["choices"][0]
            if not isinstance(choice, dict):
                raise TypeError("choice is not an object")
        except (ValueError, KeyError, IndexError, TypeError):
            # A 200 with an unreadable body (garbled, cut, invalid UTF-8, no choices) is usually
            # a proxy hiccup: worth another try.
            raise TransientModelError(
                self._redact(
                    f"unreadable answer from {self.endpoint}: "
                    f"{self._redact(raw.decode('utf-8', 'replace'))[:200]!r}"
                )
            ) from None
        info: dict[str, Any] = {}
        if self.api == "chat":
            message = choice.get("message")
            if message is None:
                message = {}
            if not isinstance(message, dict):
                raise UnusableAnswerError(
                    self._redact(
                        f"answer from {self.endpoint} has a message that is not an object: "
                        f"{str(message)[:120]!r}"
                    ),
                    raw=message,
                )
            content = message.get("content")
            if message.get("refusal"):
                info["refusal"] = message["refusal"]
        else:
            content = choice.get("text")
        try:
            text, notes = text_from_content(content)
        except UnusableAnswerError as exc:
            raise UnusableAnswerError(
                self._redact(f"{exc} (from {self.endpoint})"), raw=exc.raw
            ) from None
        info.update(notes)
        forms = self._forms()
        # Every field kept from the response, the answer included, is redacted before it is
        # stored: a server that echoes the key must not put it in the store or an export.
        reported, hidden = redact_value(choice.get("finish_reason"), forms, REDACTED)
        info["finish_reason"] = normalise_finish_reason(reported)
        if reported is not None and reported != info["finish_reason"]:
            info["finish_reason_raw"] = reported  # the server's own word, kept
        for name in ("usage", "system_fingerprint"):
            if payload.get(name) is not None:
                info[name] = payload[name]
        if payload.get("model") and payload["model"] != self.model_name:
            info["response_model"] = payload["model"]  # the exact version the server used
        info, in_info = redact_value(info, forms, REDACTED)
        text, in_text = redact_text(text, forms, REDACTED)
        if hidden + in_info + in_text:
            info["secrets_redacted"] = hidden + in_info + in_text
        return Generation(text=text, prompt_text=prompt.text_for(self.mode), info=info)
