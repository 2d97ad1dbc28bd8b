"""The Durak face tells a transfer (D16-D18) as the others see it and offers it with a hint."""

from __future__ import annotations

from rich.console import Console, RenderableType

from p2pcards.cli.screen.faces import face_for
from p2pcards.cli.screen.words import YOU
from tests.games.test_durak import make, play, show_all
from tests.games.test_durak_transfer import FOUR_T


def _plain(renderables: list[RenderableType]) -> str:
    console = Console(width=100, record=True, color_system=None)
    for r in renderables:
        console.print(r)
    return console.export_text()


def test_a_transfer_is_told_with_the_card_and_who_defends_now() -> None:
    st, deck = make(FOUR_T, "AS", transfer=True)
    show_all(st, deck)
    play(st, deck, "attack 6C")
    names = ["Ann", "Bob", "Cat", "Dan"]
    watcher = face_for("durak", [*names[:3], YOU], 3)
    before = st.view(3)
    watcher.before_move(1, "transfer 6D", before)
    assert watcher.move(1, "transfer 6D").plain == "Bob transfers with 6♦ — Cat now defends"
    defender = face_for("durak", [names[0], names[1], YOU, names[3]], 2)
    defender.before_move(1, "transfer 6D", st.view(2))
    assert defender.move(1, "transfer 6D").plain == "Bob transfers with 6♦ — You now defend"
    # the transferring seat is offered the move with what it does
    mover = face_for("durak", [names[0], YOU, *names[2:]], 1)
    view = st.view(1)
    assert "transfer 6D" in st.legal_texts()
    assert mover.hint("transfer 6D", view) == "pass the attack on: Cat defends every card"
    play(st, deck, "transfer 6D")
    shown = _plain(watcher.table(st.view(3)))
    assert "Bob" in shown and "attacks" in shown and "defends" in shown
    assert "2 of 6 attack cards" in shown
