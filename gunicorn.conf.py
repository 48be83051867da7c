"""gunicorn settings for production: `.venv/bin/gunicorn -c gunicorn.conf.py` (docs/operations.md).

Measured with bench/ingest.py on 2 cores (docs/benchmarks/ingest.md). Every setting can be
overridden on the command line (`-w 5`) or with GUNICORN_CMD_ARGS; the bind address and the worker
and thread counts also with MOTOFISCAL_BIND, MOTOFISCAL_WORKERS and MOTOFISCAL_THREADS.
"""
import multiprocessing
import os

wsgi_app = "server:create_app()"
# Loopback only: the TLS reverse proxy in front is the one public door (README, Production).
bind = os.environ.get("MOTOFISCAL_BIND", "127.0.0.1:8000")

# gthread: a request waits on PostgreSQL several times (token, chain, insert, commit), and a
# second thread of the same process runs meanwhile; idle keep-alive connections wait in the
# worker's poller instead of holding a thread. Processes, not threads, give the cores: the
# push is CPU-bound Python (signature checks, schemas), so one process per core plus one.
worker_class = "gthread"
workers = int(os.environ.get("MOTOFISCAL_WORKERS", multiprocessing.cpu_count() + 1))
threads = int(os.environ.get("MOTOFISCAL_THREADS", 4))

# The proxy keeps its upstream connections open between a phone's requests (nginx
# `keepalive`, Caddy by default): a few seconds is enough and frees idle sockets soon.
keepalive = 5
# A push of 100 records or a 16 MB photo over a slow proxy: generous, but a stuck worker is killed.
timeout = 60
graceful_timeout = 30
# Recycle workers now and then (memory growth of long-lived Python processes), staggered.
max_requests = 20000
max_requests_jitter = 2000
