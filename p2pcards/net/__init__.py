"""The node layer: trio shells around the sans-IO table — TCP mesh, handshake, discovery, lobby, timers.

- ``handshake``: the connection handshake as data (identity proof, game binding, join code).
- ``link``: one TCP connection: framing limits, the handshake, send and receive.
- ``node``: one seat's table on a full mesh of links, its journal and its clock; computer seats.
- ``thinking``, ``worker``: the computer players' own process, so their thinking never holds up the table.
- ``discovery``: mDNS advertisement and browsing through zeroconf, bridged into trio.
- ``lobby``: the host admits or refuses joiners, fills seats with computer players, starts the game.
- ``testbed``: a LAN of Linux network namespaces with no route out, for tests and benchmarks.
"""
