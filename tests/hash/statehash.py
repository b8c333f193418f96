#!/usr/bin/env python3
"""statehash.py — the checkpoint hash (`xxh3-64-le-v1`) of a state, computed
from `arbiter state FILE --at N --json` output alone.

This is an independent implementation of each engine's hash() written from
conformance/<game>/STATE.md, section "The state hash from the state tree":
it reads only the full-view state tree (the "state" object), never the
engine's structs. tests/hash/check.sh runs it over every checkpoint of the
golden corpus and compares with the engine's hash.

    statehash.py [FILE.json]       # prints the 16-hex-digit hash
    statehash.py --selftest        # the primitive vectors of FORMAT.md §11

XXH3-64 comes from Debian's python3-xxhash (`import xxhash`).
"""
import json
import struct
import sys

import xxhash

# Card identities: the index of the card id in the game's pool, the order
# `arbiter cards --game G` lists them (STATE.md repeats each list).
CARDS = {
    "brainstorm": [
        "basic-generator", "surge-generator", "relay-module", "sink-module", "shredder-module",
        "amplifier-module", "bus-module", "power-cell", "research-cell", "hoarder",
        "echo-trigger", "splice-cell", "library-cell", "fusion-cell", "firewall", "overload",
        "reactivate", "jumpstart"],
    "catalyst": [
        "prime-catalyst", "tide-catalyst", "bastion-catalyst", "shard-sentinel", "vault-sniper",
        "siege-engine", "scout-drone", "ember-totem", "bulwark", "shard-mote", "flash-barrier",
        "lancer", "warden", "spark-wisp", "long-gunner", "rift-colossus", "overcharge",
        "shard-cache"],
    "naramo": [
        "coolant-pumps", "control-room", "reactor-hall", "emergency-diesel-generators",
        "switchyard", "gubby", "steam-leak", "relay-trip", "grid-blackout", "shift-engineer",
        "station-guard", "plant-director", "noobian-raider", "bloxian-infiltrator",
        "bloxian-warlord", "chief-engineer-vessa", "intern", "dosimeter", "emergency-venting",
        "boron-injection", "defense-in-depth", "raid-doctrine", "work-order",
        "classified-dossier-z-1", "classified-dossier-z-2", "classified-dossier-z-3",
        "reactor-physicist", "spent-fuel-pool", "riot-squad", "firewall-patch", "body-armor",
        "political-officer", "ministry-directive", "noobian-sapper", "breaching-charge",
        "noobian-captain", "blitz-orders", "bloxian-hacker", "logic-bomb", "reassignment"],
    "operator": [
        "viper", "bulldog", "ronin", "ghost", "valkyrie", "katana", "heavy-sniper",
        "assault-rifle", "combat-knife", "sidearm", "machete", "nodachi", "explosive-rounds",
        "armour-piercing-rounds", "laser-sight", "incendiary-rounds", "reinforced-lining",
        "kevlar-vest", "ceramic-plate", "concrete-barrier", "wooden-crate", "sandbags",
        "sprint", "dodge", "duck", "jump", "adrenaline", "crossfire", "medkit", "field-radio",
        "second-wind"],
}


class HashError(Exception):
    """The document lacks something the hash needs (names the path)."""


class Bytes:
    """The byte string of FORMAT.md §11: little-endian integers at their
    declared width (negative values in two's complement), u32-prefixed
    strings."""

    def __init__(self):
        self.b = bytearray()

    def _int(self, v, n, what):
        if isinstance(v, bool):
            v = int(v)
        if not isinstance(v, int):
            raise HashError("%s: expected an integer, got %r" % (what, v))
        lo, hi = -(1 << (8 * n - 1)), (1 << (8 * n)) - 1
        if not lo <= v <= hi:
            raise HashError("%s: %d does not fit in %d bytes" % (what, v, n))
        self.b += (v & ((1 << (8 * n)) - 1)).to_bytes(n, "little")

    def u8(self, v, what="u8"): self._int(v, 1, what)
    def u16(self, v, what="u16"): self._int(v, 2, what)
    def u32(self, v, what="u32"): self._int(v, 4, what)
    def u64(self, v, what="u64"): self._int(v, 8, what)

    def str(self, s):
        raw = s.encode("utf-8")
        self.u32(len(raw))
        self.b += raw

    def rng(self, words):
        if not isinstance(words, list) or len(words) != 4:
            raise HashError("rng: expected 4 hex words (the full view's state tree)")
        for w in words:
            self.u64(int(w, 16) if isinstance(w, str) else w, "rng")

    def digest(self):
        return xxhash.xxh3_64_intdigest(bytes(self.b))


def get(tree, path):
    node = tree
    for k in path.split("."):
        try:
            node = node[int(k)] if isinstance(node, list) else node[k]
        except (KeyError, IndexError, ValueError, TypeError):
            raise HashError("the state tree has no %s" % path) from None
    return node


def index_of(table, value, what):
    try:
        return table.index(value)
    except ValueError:
        raise HashError("%s: unknown value %r" % (what, value)) from None


def card_index(game, cid, what):
    return index_of(CARDS[game], cid, what)


# ---- brainstorm ----------------------------------------------------------
BRN_PHASES = ["reset", "start", "expansion", "assembly", "routing", "bootstrap", "plug",
              "showdown", "focus", "end", "over"]
BRN_REASONS = ["none", "deck-out", "both-deck-out", "cycle-cap"]
BRN_ZONES = ["deck", "hand", "machine", "scrapyard"]   # zone codes 0..3; the Stack is 4
BRN_RULES = {"brainstorm-draft0-1": 1, "brainstorm-draft0-2": 2}


def hash_brainstorm(s):
    h = Bytes()
    h.str("brainstorm")
    h.rng(get(s, "rng"))
    h.u16(s["cycle"])
    h.u8(s["lead"])
    h.u8(index_of(BRN_PHASES, s["phase"], "phase"))
    seat = s["decision"]["seat"]
    h.u8(255 if seat < 0 else seat)                   # the seat owing the decision, 255 when over
    h.u8(s["passes"]); h.u8(s["run"]); h.u8(s["chosen"])
    h.u8(s["outcome"]["over"]); h.u8(s["outcome"]["winner"])
    h.u8(index_of(BRN_REASONS, s["outcome"]["reason"], "outcome.reason"))
    stack = s["stack"]
    h.u8(len(stack))
    for it in stack:
        h.u8(0 if it["kind"] == "card" else 1)
        h.u8(it["seat"]); h.u8(it["uid"])
        h.u8(it.get("target_seat", 255)); h.u8(it.get("target_uid", 255))
    for q, p in enumerate(s["players"]):
        # every card of the seat by uid: (card, zone, flags, charge, used)
        cards = {}
        for z, key in enumerate(BRN_ZONES):
            for c in p[key]:
                cards[c["uid"]] = (c, z)
        for it in stack:
            if it["kind"] == "card" and it["seat"] == q:
                cards[it["uid"]] = (it, 4)
        n = max(cards) + 1 if cards else 0
        gen = [c["uid"] for c in p["machine"] if c["card"] in ("basic-generator", "surge-generator")]
        h.u8(n)
        h.u8(gen[0] if gen else 255)
        h.u8(p["boot_count"])
        for uid in range(n):
            if uid not in cards:
                raise HashError("players.%d: uid %d is in no zone" % (q, uid))
            c, z = cards[uid]
            flags = (1 if c.get("active") else 0) | (2 if c.get("focused") else 0) | \
                    (4 if c.get("pending") else 0)
            used = sum(1 << i for i, u in enumerate(c.get("used", [])) if u)
            h.u8(card_index("brainstorm", c["card"], "players.%d card %d" % (q, uid)))
            h.u8(z); h.u8(flags); h.u8(c.get("charge", 0)); h.u8(used)
        for key in BRN_ZONES:
            zone = p[key] if key != "deck" else list(reversed(p[key]))   # deck: bottom first
            h.u8(len(zone))
            for c in zone:
                h.u8(c["uid"])
        h.u8(len(p["links"]))
        for lk in p["links"]:
            h.u8(lk["from"]); h.u8(lk["out"]); h.u8(lk["to"]); h.u8(lk["in"])
    rules = BRN_RULES[get(s, "rules")]
    if rules >= 2:
        h.u8(rules)
    return h.digest()


# ---- catalyst ------------------------------------------------------------
CAT_PHASES = ["mulligan", "start", "action", "end", "over"]
CAT_DECISIONS = ["mulligan", "mulligan-keep", "deactivate", "upkeep", "action", "reaction",
                 "archive", "over"]
CAT_REASONS = ["last-player", "all-lost", "turn-cap"]
CAT_POS = ["F1", "F2", "F3", "B1", "B2", "B3"]
CAT_FLAGS = [("face_down", 0x01), ("activated", 0x02), ("unstable", 0x04), ("reinforced", 0x08),
             ("upkeep_due", 0x10)]


def hash_catalyst(s):
    h = Bytes()
    h.str("catalyst")
    h.rng(get(s, "rng"))
    h.u32(s["turn"])
    h.u8(len(s["players"])); h.u8(s["first"]); h.u8(s["active"])
    h.u8(index_of(CAT_PHASES, s["phase"], "phase"))
    h.u8(index_of(CAT_DECISIONS, s["decision"]["kind"], "decision.kind"))
    seat = s["decision"]["seat"]
    h.u8(0 if seat < 0 else seat)                     # the seat owing the decision, 0 when over
    h.u8(s["actions"]); h.u8(s["outcome"]["over"]); h.u8(s["outcome"]["winner"])
    reason = s["outcome"]["reason"]
    h.u8(0 if reason == "" else index_of(CAT_REASONS, reason, "outcome.reason"))
    pe = s["pending"]
    if pe is None:
        h.u8(0); h.u8(0); h.u8(0); h.u8(0); h.u8(0)
    else:
        h.u8(1); h.u8(pe["seat"]); h.u8(pe["uid"]); h.u8(pe["target_seat"])
        h.u8(index_of(CAT_POS, pe["target_pos"], "pending.target_pos"))
    for q, p in enumerate(s["players"]):
        cards = get(p, "cards")
        n = len(cards)
        # per uid: (zone, position, flags, damage, shield, bonus); a uid in no zone is 0s
        st = [[0, 0, 0, 0, 0, 0] for _ in range(n)]
        for key, z in (("vault", 1), ("hand", 2), ("archive", 4)):
            for c in p[key]:
                st[c["uid"]][0] = z
                if c.get("kept"):
                    st[c["uid"]][2] = 0x20
        field = [255] * 6
        for pos, c in p["battlefield"].items():
            k = index_of(CAT_POS, pos, "battlefield")
            field[k] = c["uid"]
            fl = sum(bit for key, bit in CAT_FLAGS if c.get(key))
            st[c["uid"]] = [3, k, fl, c["damage"], c["shield"], c["bonus"]]
        h.u8(n); h.u8(p["alive"]); h.u8(p["drew_empty"]); h.u8(p["mulligans"]); h.u8(p["keep_left"])
        h.u32(p["shards"])
        for v in field:
            h.u8(v)
        vault = list(reversed(p["vault"]))             # bottom first
        for zone in (vault, p["hand"], p["archive"]):
            h.u8(len(zone))
            for c in zone:
                h.u8(c["uid"])
        for uid in range(n):
            z, k, fl, dmg, sh, bo = st[uid]
            h.u8(card_index("catalyst", cards[uid], "players.%d.cards.%d" % (q, uid)))
            h.u8(z); h.u8(k); h.u8(fl); h.u8(dmg); h.u16(sh); h.u32(bo)
    return h.digest()


# ---- naramo --------------------------------------------------------------
NAR_KINDS = ["review", "order", "operations", "block", "strike", "alarm", "deploy", "clear",
             "discard", "reconnect", "over"]
NAR_REASONS = ["none", "meltdown", "power-orders", "deck-out", "timeouts", "disconnect", "draw"]
NAR_CLEARANCE = ["D", "C", "B", "A"]
NAR_RULES = {"naramo-1": 1, "naramo-2": 2}


def hash_naramo(s):
    h = Bytes()
    h.str("naramo-1")
    h.rng(get(s, "rng"))
    h.u64(s["clock"]["match_ms"]); h.u32(s["clock"]["shift_ms"])
    h.u32(s["shift"]); h.u32(s["next_seq"])
    pe = s["pending"]
    h.u32(pe["alarm_seq"]); h.u32(pe["strike_value"]); h.u32(pe["strike_uid"])
    h.u32(pe["alarm_owner"]); h.u32(pe["alarm_uid"])
    h.u32(s["active"]); h.u32(s["first"])
    h.u8(index_of(NAR_KINDS, s["step"], "step"))
    h.u8(s["clock"]["enabled"])
    h.u8(pe["deployed"])
    h.u8(len(pe["order"]))
    for v in pe["order"]:
        h.u8(v)
    h.u8(s["outcome"]["over"])
    h.u8(index_of(NAR_REASONS, s["outcome"]["reason"], "outcome.reason"))
    h.u32(s["outcome"]["winner"])
    for q, p in enumerate(s["players"]):
        h.u64(p["disconnected_at"]); h.u32(p["core"]); h.u32(p["shutdown_until"])
        h.u8(p["hack"]); h.u8(p["power_orders"])
        h.u8(index_of(NAR_CLEARANCE, p["clearance"], "clearance"))
        h.u8(p["swipes"]); h.u8(p["scram_used"]); h.u8(p["shutdown"]); h.u8(p["review_used"])
        h.u8(p["decked"]); h.u8(p["act_used"]); h.u8(p["doctrine_used"]); h.u8(p["edg_used"])
        h.u8(p["timeouts"])
        cards = get(p, "cards")
        h.u8(len(cards))
        for i, c in enumerate(cards):
            h.u16(card_index("naramo", c, "players.%d.cards.%d" % (q, i)))
        deck = list(reversed(p["deck"]))              # bottom first
        h.u8(len(deck))
        for c in deck:
            h.u8(c["uid"])
        h.u8(len(p["hand"]))
        for c in p["hand"]:
            h.u8(c["uid"])
        h.u8(len(p["roster"]))
        for c in p["roster"]:
            h.u8(c["uid"]); h.u8((1 if c["exhausted"] else 0) | (2 if c["stationed"] else 0))
        h.u8(len(p["equipment"]))
        for c in p["equipment"]:
            h.u8(c["uid"]); h.u8(c["host"])
        h.u8(len(p["site"]))
        for c in p["site"]:
            h.u8(c["uid"])
        h.u8(len(p["discard"]))
        for c in p["discard"]:
            h.u8(c["uid"])
        h.u8(len(p["board"]))
        for b in p["board"]:
            h.u8(b["owner"]); h.u8(b["uid"]); h.u32(b["duration"]); h.u32(b["seq"])
        h.u8(len(p["effects"]))
        for e in p["effects"]:
            h.u8(e["uid"]); h.u32(e["until_shift"])
    rules = NAR_RULES[get(s, "rules")]
    if rules >= 2:
        h.u8(rules)
    return h.digest()


# ---- operator ------------------------------------------------------------
OPS_DECISIONS = ["none", "opening-discard", "opening-equip", "first-equip", "action", "boost",
                 "react", "second-equip", "over"]
OPS_REASONS = ["none", "elimination", "mutual-elimination", "turn-cap"]
OPS_TYPES = ["ranged-cover", "ranged-open", "close"]
OPS_MODES = ["ranged", "close"]
OPS_SOURCES = ["fallback", "card"]


def hash_operator(s):
    h = Bytes()
    h.str("operator/1")
    h.rng(get(s, "rng"))
    players = s["players"]
    over = s["outcome"]["over"]
    h.u8(len(players))
    h.u8(7 if over else index_of(OPS_DECISIONS, s["decision"]["kind"], "decision.kind") - 1)
    h.u8(s["decision"]["seat"])                        # -2 (0xfe) when over
    h.u8(s["active"]); h.u8(s["first"]); h.u32(s["turn"])
    ts = s["turn_state"]
    h.u8(ts["moves_used"]); h.u8(ts["moves_allowed"]); h.u8(ts["attacks_made"])
    h.u8(ts["attacks_allowed"]); h.u8(sum(1 << q for q in ts["attacked"]))
    h.u8(ts["acted"]); h.u8(ts["end_draws"])
    h.u8(over); h.u8(s["outcome"]["winner"])
    h.u8(index_of(OPS_REASONS, s["outcome"]["reason"], "outcome.reason"))
    c = s["combat"]
    if c is None:
        h.u8(-1)
    else:
        h.u8(c["target"])
        h.u8(index_of(OPS_TYPES, c["type"], "combat.type"))
        h.u8(index_of(OPS_MODES, c["mode"], "combat.mode"))
        h.u8(index_of(OPS_SOURCES, c["weapon_source"], "combat.weapon_source"))
        h.u8(-1 if c["weapon"] is None else c["weapon"]["uid"])
        h.u8(-1 if c["boost"] is None else c["boost"]["uid"])
        h.u8(c["reactions"]); h.u8(c["armor_piercing"]); h.u8(c["staged_damage"])
        for k in ("power", "cover_total", "attack", "absorbed", "damage"):
            h.u16(c[k])
    for q, p in enumerate(players):
        cards = get(p, "cards")
        h.u8(len(cards))
        for i, cid in enumerate(cards):
            h.u16(card_index("operator", cid, "players.%d.cards.%d" % (q, i)))
        h.u8(p["operator"]["uid"])
        for key in ("deck", "hand", "discard"):
            pile = p[key]                               # as stored: the deck bottom first
            h.u8(len(pile))
            for x in pile:
                h.u8(x["uid"])
        for key in ("cover", "weapon", "armor"):
            h.u8(-1 if p[key] is None else p[key]["uid"])
        for key in ("personality", "weapon", "armor"):
            h.u8(len(p["mods"][key]))
            for x in p["mods"][key]:
                h.u8(x["uid"])
        h.u16(p["health"]); h.u8(p["staged_damage"]); h.u8(p["eliminated"])
        op = p["opened"]
        h.u8((1 if op["weapon"] else 0) | (2 if op["cover"] else 0) | (4 if op["armor"] else 0))
    return h.digest()


HASHES = {"brainstorm": hash_brainstorm, "catalyst": hash_catalyst, "naramo": hash_naramo,
          "operator": hash_operator}


def state_hash(doc):
    """The hash of a `state --json` document (or of its bare "state" tree)."""
    s = doc.get("state", doc)
    game = s.get("game")
    if game not in HASHES:
        raise HashError("unknown game %r" % game)
    try:
        return HASHES[game](s)
    except KeyError as e:
        raise HashError("the state tree lacks %s" % e) from None


def selftest():
    assert "%016x" % xxhash.xxh3_64_intdigest(b"") == "2d06800538d394c2"
    h = Bytes(); h.u32(1); h.u8(2); h.str("naramo")
    assert bytes(h.b).hex() == "0100000002060000006e6172616d6f"
    assert "%016x" % h.digest() == "3bfb6fa980796b95"
    print("statehash: FORMAT.md §11 vectors ok")


def main(argv):
    if argv[1:] == ["--selftest"]:
        selftest()
        return 0
    name = argv[1] if len(argv) > 1 else "<stdin>"
    try:
        with (open(argv[1]) if len(argv) > 1 else sys.stdin) as f:
            print("%016x" % state_hash(json.load(f)))
    except (OSError, ValueError, HashError) as err:
        print("statehash.py: %s: %s (the full view of `arbiter state --json` is needed)" % (name, err),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
