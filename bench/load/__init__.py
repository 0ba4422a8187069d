"""Load and chaos: a busy league weekend on the documented deployment, on loopback.

``python -m bench.load`` (needs ``DATABASE_URL=postgres://...``; everything else it starts):

1. a database of its own (``<DATABASE_URL's name>_load``, made anew), N running games (default
   2,000: 4 to 6 players, both White Lotus editions; players sit at several tables);
2. the production shape, each a process of its own: 2 gunicorn workers (the ESP webhook), 3
   Celery workers (``--pool=solo``: one process each, so a kill is a whole worker), one beat,
   ``manage.py smtpd`` (the SMTP listener), a broker of its own (``redis-server``, or with
   ``--broker rabbitmq`` a RabbitMQ node of its own) and an SMTP sink (this module, ``sink``)
   that keeps every mail the service sends as a file;
3. scripted players read their mails from the sink and answer each decision at a target rate
   (default 50 replies/s), half through the SMTP listener and half through Postmark's inbound
   webhook (raw MIME), with duplicates (the same mail again by the other way), stale replies
   (an old answer to an old decision mail, sent again once the seat has a newer one) and
   strangers (a seat's reply address written to from another address) mixed in;
4. chaos meanwhile: ``kill -9`` of a random worker every 20 s (started again at once), one
   broker restart and one sink restart;
5. then the load stops, the service drains (the minute sweeps re-enqueue what the broker
   lost) and the database and the sink are counted: replies, moves applied, mails, lost and
   duplicated moves and mails, every game's log replayed, replies per second sustained,
   p50/p95 from a reply's arrival to the next decision mail's delivery, memory per process.

Lost move: a player's reply that is not applied.  Duplicated move: a reply applied twice, or
a duplicate, stale or stranger's mail applied at all.  Lost mail: an outbox row never
delivered to the sink.  Duplicated mail: one Message-ID delivered twice; sending is at least
once (``notifications.outbound.sending``: a worker killed between the sink's 250 and its commit sends
again), so a duplicate whose first copy arrived within two seconds before a kill is counted
as that and reported apart; any other fails the run.

``--short`` is the CI version (a few hundred replies, one kill, one broker restart, one sink
restart); the exit status is 1 on any loss or unexplained duplication.
"""
