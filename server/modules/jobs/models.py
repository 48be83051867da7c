"""DailyTaskRun: the last date each daily task decided, so that a missed day is decided later,
in order, as of its own date (registry.run_daily)."""
from ...extensions import db
from ...core.auth import utcnow


class DailyTaskRun(db.Model):
    __tablename__ = "daily_task_run"
    task = db.Column(db.String(80), primary_key=True)  # DailyTask.name
    last_decided_on = db.Column(db.Date, nullable=False)
    updated_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow, onupdate=utcnow)
