"""The gRPC keepalive options of the links: pings that notice a dead peer.

Two sets, because the two links differ in scale and in how fast a dead peer must be noticed:

* **The table link** (:data:`KEEPALIVE`: controller and seats, dealer terminal): tens of
  channels, rounds that last seconds; a ping every 10 s answered within 5 s, so a seat notices a
  lost controller (and the controller a lost seat) within 15 s.
* **The host link** (:data:`HOST_CLIENT_KEEPALIVE` on the terminal,
  :data:`HOST_SERVER_KEEPALIVE` on the accounting host): thousands of channels on one floor.
  Reports and ticket calls have their own deadlines and fail over on them, so only the
  long-lived command stream relies on pings.  The terminal pings every 30 s and waits 20 s for
  the answer; the host pings every 60 s and waits 20 s.  A host process that is busy for a few
  seconds (a burst of reports, a checkpoint) does not see its whole floor hang up and
  reconnect at once (each reconnection costs a TLS handshake and a ``Hello``), and 5,000
  terminals send 250 pings a second, not the 1,000 the table link's settings would.  The
  host accepts pings no more often than every 20 s (``min_ping_interval_without_data``), below
  the terminal's 30 s, so a terminal is never told off for pinging (``GOAWAY too_many_pings``).
  Both ends turn off gRPC's bandwidth-delay probe (``grpc.http2.bdp_probe``): it sizes the
  flow-control windows of bulk transfers with a PING after the data it receives, which on the
  link is one more frame each way for every report of a few hundred bytes (measured on the
  floor harness: a ping per report, 20% of the client's CPU); a report waits for its
  acknowledgement, so the default 64 KiB windows are never the limit.
"""

from __future__ import annotations

Options = list[tuple[str, int]]

KEEPALIVE: Options = [
    ("grpc.keepalive_time_ms", 10_000),
    ("grpc.keepalive_timeout_ms", 5_000),
    ("grpc.http2.min_ping_interval_without_data_ms", 5_000),
    ("grpc.keepalive_permit_without_calls", 1),
]

HOST_CLIENT_KEEPALIVE: Options = [
    ("grpc.http2.bdp_probe", 0),
    ("grpc.keepalive_time_ms", 30_000),
    ("grpc.keepalive_timeout_ms", 20_000),
    ("grpc.keepalive_permit_without_calls", 1),
]

HOST_SERVER_KEEPALIVE: Options = [
    ("grpc.http2.bdp_probe", 0),
    ("grpc.keepalive_time_ms", 60_000),
    ("grpc.keepalive_timeout_ms", 20_000),
    ("grpc.http2.min_ping_interval_without_data_ms", 20_000),
    ("grpc.keepalive_permit_without_calls", 1),
]
