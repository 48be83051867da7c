"""Two crachás issued at the same moment: the loser of the serial race retries, never a 500."""
from sqlalchemy import event, insert

from server.extensions import db
from server.modules.credentials.models import Credential
from server.modules.credentials.operations import create_key, issue_credential
from server.modules.registry.models import Municipality, Permit


def test_serial_collision_with_a_concurrent_writer_takes_the_next_serial(app, demo):
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        create_key(muni)
        permits = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).limit(2).all()
        first = issue_credential(permits[0])
        taken = {}

        def concurrent_writer(session, _ctx, _instances):
            # Another worker commits a crachá with the serial this session is about to use.
            pending = [o for o in session.new if isinstance(o, Credential)]
            if not pending or taken:
                return
            row = {c.key: getattr(first, c.key) for c in Credential.__table__.columns if c.key != "id"}
            row.update(serial=pending[0].serial, status="revoked")
            with db.engine.begin() as other:
                other.execute(insert(Credential.__table__).values(**row))
            taken["serial"] = pending[0].serial

        event.listen(db.session, "before_flush", concurrent_writer)
        try:
            second = issue_credential(permits[1])
        finally:
            event.remove(db.session, "before_flush", concurrent_writer)
        assert taken["serial"] == first.serial + 1
        assert second.serial == first.serial + 2
        assert second.status == "active" and second.permit_id == permits[1].id


def test_key_files_of_an_earlier_database_are_never_overwritten(app, demo):
    """instance/ kept, database reset: `make run` must still create keys, without clobbering."""
    from pathlib import Path

    from server.modules.credentials import keys as keystore
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        folder = Path(keystore.keys_dir()) / "sapezal"
        folder.mkdir(parents=True, exist_ok=True)
        old = folder / "1.pem"
        old.write_bytes(b"key of an earlier database")
        key = create_key(muni)
        assert key.kid == 1 and key.private_key_file != "sapezal/1.pem"
        assert old.read_bytes() == b"key of an earlier database"
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").first()
        assert issue_credential(permit).payload.startswith("HTTP://LOCALHOST:5000/V/")
