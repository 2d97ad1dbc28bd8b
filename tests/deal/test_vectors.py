"""protocol/vectors/deal: the committed vectors are what the code produces, and every value in them
re-checks from the formulas of protocol/DEAL.md, computed here as another implementation would."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from p2pcards.deal import Context, KeyAnnouncement, Share, Shuffle, verify_key, verify_share, verify_shuffle
from p2pcards.deal.deck import Ciphertext, Deck
from p2pcards.deal.group import G, Point, Q, point_sum, random_below, random_scalar

from .make_vectors import VECTOR_DIR, build_vectors, render

BUILT = build_vectors()


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((VECTOR_DIR / name).read_text(encoding="utf-8"))
    return data


def b(hex_string: str) -> bytes:
    return bytes.fromhex(hex_string)


def n(hex_string: str) -> int:
    return int(hex_string, 16)


def pt(hex_string: str) -> Point:
    return Point.decode(b(hex_string))


# --- the formulas of DEAL.md, written out independently of p2pcards.deal.hashing --------------------


def frame(tag: str, *parts: bytes) -> bytes:
    t = b"p2pcards/deal/v1/" + tag.encode()
    return len(t).to_bytes(4, "big") + t + b"".join(len(p).to_bytes(4, "big") + p for p in parts)


def digest(tag: str, *parts: bytes) -> bytes:
    return hashlib.sha256(frame(tag, *parts)).digest()


def hq(tag: str, *parts: bytes) -> int:
    m = frame(tag, *parts)
    return (
        int.from_bytes(hashlib.sha256(m + b"\x00").digest() + hashlib.sha256(m + b"\x01").digest(), "big") % Q
    )


def u64(i: int) -> bytes:
    return i.to_bytes(8, "big")


def ctx_of(j: dict[str, Any]) -> Context:
    c = Context(game_id=b(j["game_id"]), hand=j["hand"], seat=j["seat"], step=j["step"], version=j["version"])
    seat = (2**64 - 1) if j["seat"] is None else j["seat"]
    expected = u64(j["version"]) + len(c.game_id).to_bytes(4, "big") + c.game_id + u64(j["hand"]) + u64(seat)
    assert c.encode() == b(j["encoding"]) == expected + u64(j["step"])
    return c


def try_and_increment(label: bytes) -> tuple[int, bytes]:
    for ctr in range(1000):
        candidate = b"\x02" + hashlib.sha256(label + ctr.to_bytes(4, "big")).digest()
        try:
            Point.decode(candidate)
        except Exception:
            continue
        return ctr, candidate
    raise AssertionError(label)


# --- the checks -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BUILT))
def test_committed_vectors_are_up_to_date(name: str) -> None:
    assert (VECTOR_DIR / name).read_text(encoding="utf-8") == render(BUILT[name]), (
        "regenerate with: .venv/bin/python tests/deal/make_vectors.py"
    )


def test_hashing_vectors() -> None:
    v = load("hashing.json")
    assert n(v["group_order"]) == Q
    for f in v["frames"]:
        parts = [b(p) for p in f["parts"]]
        assert b(f["frame"]) == frame(f["tag"], *parts)
        assert b(f["digest"]) == digest(f["tag"], *parts)
        assert n(f["hash_to_scalar"]) == hq(f["tag"], *parts)
    for c in v["contexts"]:
        ctx_of(c)
    seed = b(v["seeded_source"]["seed"])
    prefix = frame("seeded-source", seed)
    stream = b"".join(hashlib.sha256(prefix + u64(k)).digest() for k in range(3))
    assert b(v["seeded_source"]["first_80_bytes"]) == stream[:80]


def test_point_vectors() -> None:
    v = load("points.json")
    assert b(v["G"]) == G.encode()
    for entry in [*v["cards"], *v["generators"]]:
        ctr, point = try_and_increment(entry["label"].encode())
        assert (entry["counter"], b(entry["point"])) == (ctr, point)
    assert [e["label"] for e in v["cards"][:2]] == ["p2pcards/card/0", "p2pcards/card/1"]
    assert [e["label"] for e in v["generators"][:2]] == ["p2pcards/gen/h0", "p2pcards/gen/h/1"]
    assert len({e["point"] for e in [*v["cards"], *v["generators"]]}) == 52 + 53


def test_key_vector() -> None:
    v = load("key_proof.json")
    ctx, commit_ctx = ctx_of(v["context"]), ctx_of(v["commit_context"])
    x, h, T, w, e, s = n(v["secret"]), pt(v["public"]), pt(v["T"]), n(v["nonce"]), n(v["e"]), n(v["s"])
    assert h == x * G and w * G == T
    assert b(v["commitment"]) == digest("key-commit", commit_ctx.encode(), h.encode())
    assert e == hq("key", ctx.encode(), h.encode(), T.encode())
    assert s == (w + e * x) % Q and s * G == T + e * h
    assert verify_key(ctx, KeyAnnouncement.from_wire([b(x) for x in v["wire"]])) == h


def test_shuffle_vector() -> None:
    v = load("shuffle_5.json")
    ctx = ctx_of(v["context"])
    xs = [n(x) for x in v["seat_secrets"]]
    publics = [pt(p) for p in v["seat_publics"]]
    assert publics == [x * G for x in xs]
    H = pt(v["joint_key"])
    assert point_sum(publics) == H
    card_points = {c: Point.decode(try_and_increment(b"p2pcards/card/%d" % c)[1]) for c in v["cards"]}
    deck_in = Deck.from_wire([b(x) for x in v["input_deck"]], 5)
    assert list(deck_in) == [Ciphertext(G, card_points[c] + H) for c in v["cards"]]
    deck_out = Deck.from_wire([b(x) for x in v["output_deck"]], 5)
    psi, rr = v["permutation"], [n(x) for x in v["remask"]]

    # the randomness is the documented draws from the seeded source
    from p2pcards.deal.hashing import seeded_source

    src = seeded_source(b(v["source_seed"]))
    perm = list(range(5))
    for i in range(4, 0, -1):
        j = random_below(i + 1, src)
        perm[i], perm[j] = perm[j], perm[i]
    assert perm == psi
    assert rr == [random_scalar(src) for _ in range(5)]
    rnd = {k: [n(x) for x in vals] for k, vals in v["randomness"].items()}
    assert rnd["r"] + rnd["r_hat"] + rnd["omega_1_to_4"] + rnd["omega_hat"] + rnd["omega_prime"] == [
        random_scalar(src) for _ in range(24)
    ]

    # the output deck is the permuted, re-masked input
    for i in range(5):
        A, B = deck_in[psi[i]].A, deck_in[psi[i]].B
        assert deck_out[i] == Ciphertext(A + rr[i] * G, B + rr[i] * H)
    assert v["output_cards"] == [v["cards"][j] for j in psi]

    # every value of the proof from the formulas
    gens = [Point.decode(try_and_increment(b"p2pcards/gen/h0")[1])]
    gens += [Point.decode(try_and_increment(b"p2pcards/gen/h/%d" % i)[1]) for i in range(1, 6)]
    h0, h = gens[0], gens[1:]
    f = [b(x) for x in v["proof_wire"]]
    c = [Point.decode(f[0][33 * i : 33 * i + 33]) for i in range(5)]
    c_hat = [Point.decode(f[1][33 * i : 33 * i + 33]) for i in range(5)]
    t = [Point.decode(x) for x in f[2:7]]
    t_hat = [Point.decode(f[7][33 * i : 33 * i + 33]) for i in range(5)]
    s = [n(x.hex()) for x in f[8:12]]
    s_hat = [int.from_bytes(f[12][32 * i : 32 * i + 32], "big") for i in range(5)]
    s_prime = [int.from_bytes(f[13][32 * i : 32 * i + 32], "big") for i in range(5)]
    r, r_hat = rnd["r"], rnd["r_hat"]
    w1, w2, w3, w4 = rnd["omega_1_to_4"]
    w_hat, w_prime = rnd["omega_hat"], rnd["omega_prime"]
    for i in range(5):
        assert c[psi[i]] == r[psi[i]] * G + h[i]
    enc = b"".join
    seed = digest(
        "shuffle/statement",
        ctx.encode(),
        H.encode(),
        deck_in.encode(),
        deck_out.encode(),
        enc(p.encode() for p in c),
    )
    u = [hq("shuffle/u", seed, u64(j)) for j in range(1, 6)]
    assert u == [n(x) for x in v["u"]]
    up = [u[psi[i]] for i in range(5)]
    chain = [h0]
    for i in range(5):
        chain.append(r_hat[i] * G + up[i] * chain[-1])
    assert c_hat == chain[1:]
    assert t[0] == w1 * G and t[1] == w2 * G
    assert t[2] == point_sum([w3 * G, *(w_prime[i] * h[i] for i in range(5))])
    assert t[3] == point_sum([(-w4) * G, *(w_prime[i] * deck_out[i].A for i in range(5))])
    assert t[4] == point_sum([(-w4) * H, *(w_prime[i] * deck_out[i].B for i in range(5))])
    assert t_hat == [w_hat[i] * G + w_prime[i] * chain[i] for i in range(5)]
    ch = hq(
        "shuffle/ch", ctx.encode(), H.encode(), deck_in.encode(), deck_out.encode(),
        enc(p.encode() for p in c), enc(p.encode() for p in c_hat), enc(p.encode() for p in t),
        enc(p.encode() for p in t_hat),
    )  # fmt: skip
    assert ch == n(v["ch"])
    vv = [1] * 5
    for i in range(3, -1, -1):
        vv[i] = up[i + 1] * vv[i + 1] % Q
    assert s[0] == (w1 + ch * sum(r)) % Q
    assert s[1] == (w2 + ch * sum(a * b_ for a, b_ in zip(r_hat, vv, strict=True))) % Q
    assert s[2] == (w3 + ch * sum(a * b_ for a, b_ in zip(r, u, strict=True))) % Q
    assert s[3] == (w4 + ch * sum(a * b_ for a, b_ in zip(rr, up, strict=True))) % Q
    assert s_hat == [(w_hat[i] + ch * r_hat[i]) % Q for i in range(5)]
    assert s_prime == [(w_prime[i] + ch * up[i]) % Q for i in range(5)]
    # and the library's verifier accepts it from the wire form
    step = Shuffle.from_wire([[b(x) for x in v["output_deck"]], f], 5)
    assert verify_shuffle(ctx, H, deck_in, step) == deck_out


def test_share_vector() -> None:
    v = load("share.json")
    position = v["position"]
    ct = Ciphertext.decode(b(v["ciphertext"]))
    deck = Deck(tuple(ct if i == position else Ciphertext(G, G) for i in range(5)))
    ds = []
    for sv in v["shares"]:
        ctx = ctx_of(sv["context"])
        x, h, d, w = n(sv["secret"]), pt(sv["public"]), pt(sv["d"]), n(sv["nonce"])
        T1, T2, e, s = pt(sv["T1"]), pt(sv["T2"]), n(sv["e"]), n(sv["s"])
        assert h == x * G and d == x * ct.A and w * G == T1 and w * ct.A == T2
        assert e == hq(
            "share",
            ctx.encode(),
            u64(position),
            h.encode(),
            ct.A.encode(),
            d.encode(),
            T1.encode(),
            T2.encode(),
        )
        assert s == (w + e * x) % Q and s * G == T1 + e * h and s * ct.A == T2 + e * d
        wire = [sv["wire"][0], *(b(x) for x in sv["wire"][1:])]
        assert verify_share(ctx, h, deck, position, Share.from_wire(wire)) == d
        ds.append(d)
    m = ct.B - point_sum(ds)
    assert m.encode() == b(v["card_point"])
    assert m.encode() == try_and_increment(b"p2pcards/card/%d" % v["card"])[1]


def test_coin_vector() -> None:
    v = load("coin.json")
    ctxs = [ctx_of(c) for c in v["contexts"]]
    rhos = [b(r) for r in v["rho"]]
    for c, r, commitment in zip(ctxs, rhos, v["commitments"], strict=True):
        assert b(commitment) == digest("coin-commit", c.encode(), r)
    coin = digest("coin", ctxs[0].for_seat(None).encode(), *rhos)
    assert coin == b(v["coin"])
    for draw in v["draws"]:
        k = 0
        while True:
            value = int.from_bytes(digest("coin-draw", coin, b(draw["purpose"]), u64(k)), "big")
            if value < 2**256 - 2**256 % draw["n"]:
                break
            k += 1
        assert draw["value"] == value % draw["n"]
