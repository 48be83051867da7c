"""How a notice leaves the server: one Channel per medium, each answering with what its provider
said. E-mail goes over SMTP (smtplib, the standard library). SMS and WhatsApp go through a
provider the municipality contracts: none is shipped; the interface below is what one implements
(docs/notices.md shows a complete one).

    class Channel(Protocol):
        medium: str                        # "email" | "sms" | "whatsapp"
        provider: str                      # a name for the records ("smtp:mail.prefeitura.mt.gov.br")
        def send(self, message: Outgoing) -> ProviderAnswer: ...

A provider is named in the configuration as "package.module:factory" (NOTICE_SMS_PROVIDER,
NOTICE_WHATSAPP_PROVIDER); the factory is called with the app's config and returns a Channel.
`send` must not raise for a refusal: it answers ok=False with the provider's words, and
permanent=True when trying again cannot help (an address that does not exist); an exception is
recorded as a transient failure and retried. A medium without a configured channel sends nothing,
and the notice records that the operator could not be told that way.
"""
import importlib
import smtplib
import ssl
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from typing import Protocol


@dataclass
class Outgoing:
    to: str                      # e-mail address or +55 mobile number
    subject: str
    text: str
    link: str | None = None
    attachments: list = field(default_factory=list)  # [(filename, mimetype, bytes)]


@dataclass
class ProviderAnswer:
    ok: bool
    provider: str
    answer: str                  # what the provider said, recorded as is (shortened to 500 characters)
    permanent: bool = False      # a refusal that trying again cannot change


class Channel(Protocol):
    medium: str
    provider: str

    def send(self, message: Outgoing) -> ProviderAnswer: ...


class EmailChannel:
    """SMTP submission: STARTTLS (port 587), implicit TLS (465) or none (a relay on the same host)."""
    medium = "email"

    def __init__(self, config):
        self.host = config["SMTP_HOST"]
        self.port = int(config.get("SMTP_PORT") or 587)
        self.security = (config.get("SMTP_SECURITY") or "starttls").lower()
        self.username = config.get("SMTP_USERNAME") or None
        self.password = config.get("SMTP_PASSWORD") or None
        self.sender = config.get("SMTP_FROM") or f"avisos@{self.host}"
        self.sender_name = config.get("SMTP_FROM_NAME") or "Prefeitura — Motofiscal"
        self.timeout = float(config.get("SMTP_TIMEOUT") or 20)
        self.provider = f"smtp:{self.host}:{self.port}"

    def _connect(self):
        if self.security == "ssl":
            return smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=ssl.create_default_context())
        client = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        if self.security == "starttls":
            client.starttls(context=ssl.create_default_context())
        return client

    def message(self, message: Outgoing) -> EmailMessage:
        mail = EmailMessage()
        mail["From"] = formataddr((self.sender_name, self.sender))
        mail["To"] = message.to
        mail["Subject"] = message.subject
        mail["Message-ID"] = make_msgid(domain=self.sender.rsplit("@", 1)[-1])
        text = message.text + (f"\n\n{message.link}\n" if message.link else "")
        mail.set_content(text)
        for filename, mimetype, data in message.attachments:
            main, sub = mimetype.split("/", 1)
            mail.add_attachment(data, maintype=main, subtype=sub, filename=filename)
        return mail

    def send(self, message: Outgoing) -> ProviderAnswer:
        mail = self.message(message)
        with self._connect() as client:
            if self.username:
                client.login(self.username, self.password or "")
            # Step by step (not send_message) to keep the server's own answer to the message.
            client.ehlo_or_helo_if_needed()
            code, reply = client.mail(self.sender)
            if code != 250:
                return self._refused(code, reply)
            code, reply = client.rcpt(message.to)
            if code not in (250, 251):
                return self._refused(code, reply)
            # smtplib sends bytes as given: the lines must already end in CRLF (RFC 5321).
            code, reply = client.data(mail.as_bytes(policy=mail.policy.clone(linesep="\r\n")))
            if code != 250:
                return self._refused(code, reply)
            return ProviderAnswer(True, self.provider, f"{code} {reply.decode(errors='replace')}"[:500])

    def _refused(self, code, reply):
        # 5xx: the server will not take it (unknown mailbox, refused sender) — trying again cannot help.
        return ProviderAnswer(False, self.provider, f"{code} {reply.decode(errors='replace')}"[:500],
                              permanent=500 <= code < 600)


def _load(path, config):
    module_name, _, factory = (path or "").partition(":")
    if not module_name or not factory:
        raise RuntimeError(f"Provider {path!r}: use 'package.module:factory'.")
    return getattr(importlib.import_module(module_name), factory)(config)


def configured_channels(config) -> dict:
    """medium → Channel, for the media this installation can send."""
    channels = {}
    if config.get("SMTP_HOST"):
        channels["email"] = EmailChannel(config)
    for medium, key in (("sms", "NOTICE_SMS_PROVIDER"), ("whatsapp", "NOTICE_WHATSAPP_PROVIDER")):
        if config.get(key):
            channels[medium] = _load(config[key], config)
    return channels
