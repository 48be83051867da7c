"""Concurrency: phones pushing at once, the same batch replayed in parallel, number blocks reserved
at once. Real threads, each with its own app context and connection, on both databases.

On SQLite (`make run`) these failed with "database is locked" (a 500) until a savepoint that begins
SQLite's transaction began it as a writer (core/transaction.py): two phones syncing at the same
moment is an ordinary morning for a small prefeitura.
"""
import threading

from fieldsync_device import FakeDevice


def _in_threads(target, args_list):
    barrier = threading.Barrier(len(args_list))
    results, errors = [None] * len(args_list), []

    def run(index, args):
        try:
            barrier.wait()
            results[index] = target(*args)
        except Exception as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(args_list)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    return results


def test_same_batch_replayed_in_parallel_is_stored_once(app, client, demo):
    from server.modules.fieldsync.models import AutoNumber, FieldRecord
    phone = FakeDevice(client, "fiscal.sapezal")
    numbers = phone.reserve(5)
    batch = [phone.inspection() for _ in range(15)] + [phone.auto(n) for n in numbers]

    def push():
        response = app.test_client().post("/api/v1/sync/push", headers=phone.headers, json={"records": batch})
        assert response.status_code == 200, response.get_data(as_text=True)
        return [r["status"] for r in response.json["results"]]

    outcomes = _in_threads(push, [()] * 8)
    for index in range(len(batch)):
        statuses = [outcome[index] for outcome in outcomes]
        assert statuses.count("accepted") == 1 and statuses.count("duplicate") == 7, statuses
    with app.app_context():
        assert FieldRecord.query.count() == 20
        assert {n.status for n in AutoNumber.query} == {"used"}
        assert all(not r.flags for r in FieldRecord.query), [r.flags for r in FieldRecord.query]


def test_two_devices_push_at_once(app, client, demo):
    from server.modules.fieldsync.models import FieldRecord
    phones = [FakeDevice(client, "fiscal.sapezal", name=f"Aparelho {i}") for i in range(2)]
    batches = [[phone.inspection() for _ in range(40)] for phone in phones]

    def push(phone, batch):
        response = app.test_client().post("/api/v1/sync/push", headers=phone.headers,
                                          json={"records": batch})
        return [(r["status"], r["flags"]) for r in response.json["results"]]

    outcomes = _in_threads(push, list(zip(phones, batches)))
    assert all(outcome == [("accepted", [])] * 40 for outcome in outcomes), outcomes
    with app.app_context():
        assert FieldRecord.query.count() == 80


def test_number_blocks_reserved_at_once_never_overlap(app, client, demo):
    phones = [FakeDevice(client, "fiscal.sapezal", name=f"Aparelho {i}") for i in range(6)]

    def reserve(phone):
        response = app.test_client().post("/api/v1/autos/numbers", headers=phone.headers, json={"count": 10})
        assert response.status_code == 201, response.get_data(as_text=True)
        return response.json["numbers"]

    blocks = _in_threads(reserve, [(p,) for p in phones])
    numbers = [n for block in blocks for n in block]
    assert len(numbers) == len(set(numbers)) == 60
    assert sorted(int(n[-6:]) for n in numbers) == list(range(1, 61))


def test_conflicting_bodies_in_parallel_keep_one_original(app, client, demo):
    from server.modules.fieldsync.models import FieldRecord, FieldRecordConflict
    phone = FakeDevice(client, "fiscal.sapezal")
    body = phone.body("inspection")
    variants = [phone.record({**body, "plate": f"AAA{i}B{i}{i}"}) for i in range(6)]

    def push(record):
        response = app.test_client().post("/api/v1/sync/push", headers=phone.headers, json={"records": [record]})
        return response.json["results"][0]["status"]

    statuses = _in_threads(push, [(v,) for v in variants])
    assert sorted(statuses) == ["accepted"] + ["conflict"] * 5
    with app.app_context():
        assert FieldRecord.query.count() == 1 and FieldRecordConflict.query.count() == 5
