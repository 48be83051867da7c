"""A registry import job: the uploaded file kept in the database (every app server behind the
balancer reads it; no instance folder), what to do with it (check, or commit with the clerk's
decisions), its progress and its stored result (the report is read, never recomputed)."""
from ...extensions import db
from ..registry.models import utcnow

ACTIONS = ("check", "commit")
STATES = ("queued", "running", "done", "failed")


class ImportJob(db.Model):
    id = db.Column(db.String(36), primary_key=True)        # random, unguessable (the URL's token)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    user_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=True)   # None: the command line
    action = db.Column(db.String(10), nullable=False)
    state = db.Column(db.String(10), nullable=False, default="queued", index=True)
    file_name = db.Column(db.String(200), nullable=False)
    kind = db.Column(db.String(5), nullable=False)          # csv | xlsx
    sha256 = db.Column(db.String(64), nullable=False)
    body = db.Column(db.LargeBinary, nullable=False)
    options = db.Column(db.JSON, nullable=False, default=dict)
    rows_done = db.Column(db.Integer, nullable=False, default=0)
    result = db.Column(db.JSON)
    message = db.Column(db.String(500))                     # pt-BR, when the file itself was refused
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)
    started_at = db.Column(db.DateTime(timezone=True))
    heartbeat_at = db.Column(db.DateTime(timezone=True))
    finished_at = db.Column(db.DateTime(timezone=True))
