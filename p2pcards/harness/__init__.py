"""The protocol test harness: every seat a peer in one process, over a simulated network with seeded
faults and byzantine seats, driving the same ``Table`` the LAN node drives."""
