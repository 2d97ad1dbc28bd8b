"""Terminal rendering for ``p2pcards play``: cards, each game's table, the menu of moves, sentences.

- ``cards``: cards with suit symbols and colours, sorted hands, moves with their cards as symbols.
- ``tables``: the table of Durak, Spades and Azi as one seat sees it.
- ``menu``: the numbered legal moves and reading what the player typed.
- ``describe``: moves, the deal, hand results, the audit verdict and faults in words.
"""
