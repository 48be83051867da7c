"""A real SMTP server on loopback for the notice tests (aiosmtpd, a dev dependency): it keeps every
message it accepts, and refuses the recipients a test names with the reply a test chooses."""
import socket
from email import message_from_bytes, policy

from aiosmtpd.controller import Controller


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Mailbox:
    """aiosmtpd handler: accepted messages (parsed) and the envelope of each."""

    def __init__(self):
        self.messages, self.refuse = [], {}

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.content, policy=policy.default)
        self.messages.append({"from": envelope.mail_from, "to": list(envelope.rcpt_tos), "message": message})
        return f"250 2.0.0 Ok: queued as M{len(self.messages):04d}"


class SmtpServer:
    def __init__(self):
        self.mailbox = Mailbox()
        self.port = free_port()
        self.controller = Controller(self.mailbox, hostname="127.0.0.1", port=self.port)

    def start(self):
        self.controller.start()
        return self

    def stop(self):
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def restart(self):
        self.controller = Controller(self.mailbox, hostname="127.0.0.1", port=self.port)
        return self.start()

    def config(self):
        return {"SMTP_HOST": "127.0.0.1", "SMTP_PORT": self.port, "SMTP_SECURITY": "none",
                "SMTP_FROM": "avisos@prefeitura.test", "SMTP_TIMEOUT": 10}
