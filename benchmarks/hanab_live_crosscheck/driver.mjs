// Play random games through Hanab Live's own game package and record, after every action,
// what its state says; the fixture of tests/engine/test_hanab_live_crosscheck.py.
//
//   tsx benchmarks/hanab_live_crosscheck/driver.mjs HANAB_LIVE_CHECKOUT [options]
//
// HANAB_LIVE_CHECKOUT is a checkout of github.com/Hanabi-Live/hanabi-live (GPL-3.0: its code
// is run from there, never copied here) whose packages/game can import its dependencies
// (see README.md in this folder for the exact set-up). Options:
//
//   --out FILE            the fixture (gzip'd JSON lines), default tests/data/hanab_live/games.jsonl.gz
//   --dir DIR             also write each game as DIR/NNNNN.log (our log) and NNNNN.hl.jsonl
//   --per-variant N       games in every printable variant (default 3)
//   --min-family N        games at least in every family (default 20; topped up round-robin)
//   --empty-clues N       games more with Hanab Live's "Empty Clues" option (default 100)
//   --at-least NAME=N     at least N games in that variant (repeatable; default: 20 in each of
//                         the five our printed-book options also play, see the README)
//   --seed S              the first game's seed (default 1); game k uses seed S + k
//   --variant NAME        only this variant (repeatable; for trying one out)
//   --commit SHA          Hanab Live's commit, written into the fixture (default: git rev-parse)
//
// Hanab Live's client package only folds the actions its server sends (clue with the cards it
// touched, play, strike + failed discard, draw, gameOver). This driver plays the server's part:
// what the server (server/src/command_action.go, game.go, game_player.go) decides, it decides
// the same way, asking the game package wherever the package has the rule (which cards a clue
// touches, which ranks play next, clue tokens, max score, pace, possibilities); see README.md.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

import { checkEnd } from "./server.mjs";

const FORMAT = "hanab-live-crosscheck/1";
const PLAIN = { Red: "R", Yellow: "Y", Green: "G", Blue: "B", Purple: "W" };
const CLUE_LABEL = { Red: "red", Yellow: "yellow", Green: "green", Blue: "blue", Purple: "white" };
const SPECIAL_LETTER = "M";
const SPECIAL_LABEL = "multicolor";
// The copies of each rank printed in a suit (1s to 5s): a suit that needs more of a rank (a
// reversed suit's three 5s) cannot be carried by the printed cards.
const PRINTED_COPIES = [3, 2, 2, 2, 1];
// The variants our printed-book options also play (tests/engine/test_hanab_live_crosscheck.py).
const PRINTED_BOOK = [
  "No Variant",
  "6 Suits",
  "Black (6 Suits)",
  "Rainbow (6 Suits)",
  "Dark Rainbow (6 Suits)",
];
const SPECIAL_KINDS = [
  ["omni", ["specialRankAllClueColors", "specialRankAllClueRanks"]],
  ["null", ["specialRankNoClueColors", "specialRankNoClueRanks"]],
  ["muddy", ["specialRankAllClueColors", "specialRankNoClueRanks"]],
  ["light", ["specialRankAllClueRanks", "specialRankNoClueColors"]],
  ["rainbow", ["specialRankAllClueColors"]],
  ["pink", ["specialRankAllClueRanks"]],
  ["white", ["specialRankNoClueColors"]],
  ["brown", ["specialRankNoClueRanks"]],
  ["deceptive", ["specialRankDeceptive"]],
];
const FLAGS = [
  "criticalRank",
  "scarceOnes",
  "clueStarved",
  "alternatingClues",
  "oddsAndEvens",
  "funnels",
  "chimneys",
  "synesthesia",
  "throwItInAHole",
  "cowAndPig",
  "duck",
  "colorCluesTouchNothing",
  "rankCluesTouchNothing",
];

function parseArgs(argv) {
  const args = {
    hl: null,
    out: "tests/data/hanab_live/games.jsonl.gz",
    dir: null,
    perVariant: 3,
    minFamily: 20,
    emptyClues: 100,
    seed: 1,
    variants: [],
    commit: null,
    atLeast: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      i++;
      if (i >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[i];
    };
    if (arg === "--out") args.out = next();
    else if (arg === "--dir") args.dir = next();
    else if (arg === "--per-variant") args.perVariant = Number(next());
    else if (arg === "--min-family") args.minFamily = Number(next());
    else if (arg === "--empty-clues") args.emptyClues = Number(next());
    else if (arg === "--seed") args.seed = Number(next());
    else if (arg === "--variant") args.variants.push(next());
    else if (arg === "--commit") args.commit = next();
    else if (arg === "--at-least") {
      const [name, count] = next().split(/=(?=[0-9]+$)/);
      args.atLeast = { ...args.atLeast, [name]: Number(count) };
    }
    else if (args.hl === null && !arg.startsWith("--")) args.hl = arg;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (args.hl === null) throw new Error("usage: driver.mjs HANAB_LIVE_CHECKOUT [options]");
  args.atLeast ??= Object.fromEntries(PRINTED_BOOK.map((name) => [name, 20]));
  return args;
}

// A small seeded generator (mulberry32), so that a fixture can be made again byte for byte.
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (list) => list[int(list.length)];
  return { next, int, pick };
}

// -- which variants a printed deck carries, and their families ------------------------------

/** The suit names outside the five plain colours, or null if a printed deck cannot carry it. */
function printable(variantJSON, game) {
  const { suits } = variantJSON;
  if (suits.length > 6 || new Set(suits).size !== suits.length) return null;
  if (variantJSON.upOrDown || variantJSON.sudoku || variantJSON.stackSize !== undefined) return null;
  const others = suits.filter((name) => !(name in PLAIN));
  if (others.length > 1) return null;
  const variant = game.getVariant(variantJSON.name);
  // A reversed suit is played from 5 down to 1: its cards do not say so, and a normal one
  // needs three 5s (and the printed cards have one).
  if (variant.suits.some((suit) => suit.reversed)) return null;
  for (const suit of variant.suits) {
    for (const rank of [1, 2, 3, 4, 5]) {
      if (game.getNumCopiesOfCard(suit, rank, variant) > PRINTED_COPIES[rank - 1]) return null;
    }
  }
  // At most one clue colour other than the plain ones, and it belongs to the special suit.
  const otherColors = variant.clueColors.filter((color) => !(color.name in CLUE_LABEL));
  if (otherColors.length > 1) return null;
  if (otherColors.length === 1) {
    const special = variant.suits.find((suit) => !(suit.name in PLAIN));
    if (special === undefined || !special.clueColors.some((c) => c.name === otherColors[0].name)) {
      return null;
    }
  }
  return others;
}

/** The families of a variant: its special suit (or none), its special rank, each flag, its size. */
function families(variantJSON) {
  const other = variantJSON.suits.find((name) => !(name in PLAIN));
  const out = [`suit:${other ?? "none"}`, `suits:${variantJSON.suits.length}`];
  if (variantJSON.specialRank !== undefined) {
    const kind = SPECIAL_KINDS.find(
      ([, keys]) =>
        keys.every((key) => variantJSON[key]) &&
        Object.keys(variantJSON).filter((k) => k.startsWith("specialRank") && k !== "specialRank")
          .length === keys.length,
    );
    if (kind === undefined) throw new Error(`unknown special rank in ${variantJSON.name}`);
    out.push(`special:${kind[0]}-${variantJSON.specialRank}s`);
  }
  for (const flag of FLAGS) {
    if (variantJSON[flag] !== undefined) out.push(`flag:${flag}`);
  }
  if (variantJSON.clueColors?.length === 0) out.push("flag:colorMute");
  if (variantJSON.clueRanks?.length === 0) out.push("flag:numberMute");
  // And by name, as players name them: the name without its suit count and without the
  // special suit it adds ("Pink-Ones & Rainbow (6 Suits)": "Pink-Ones"; "6 Suits": none).
  const base = variantJSON.name.split(" (")[0];
  let named = base.split(" & ")[0];
  if (base.endsWith(" Suits") || base === "No Variant") named = "No Variant";
  else if (base.startsWith("Cow & Pig")) named = "Cow & Pig";
  out.push(`name:${named}`);
  return out;
}

// -- one game, Hanab Live's server played by the driver -----------------------------------

function playGame(game, variantName, players, seed, emptyClues) {
  const variant = game.getVariant(variantName);
  const random = rng(seed);
  const options = { ...game.defaultOptions, numPlayers: players, variantName, emptyClues };
  const metadata = {
    ourUsername: "Alice",
    options,
    playerNames: game.DEFAULT_PLAYER_NAMES.slice(0, players),
    ourPlayerIndex: 0,
    characterAssignments: new Array(players).fill(null),
    characterMetadata: new Array(players).fill(-1),
    minEfficiency: 0,
    hardVariant: false,
    hasCustomSeed: false,
    seed: String(seed),
  };
  const letters = variant.suits.map((suit) => PLAIN[suit.name] ?? SPECIAL_LETTER);
  const colorLabels = variant.clueColors.map((color) => CLUE_LABEL[color.name] ?? SPECIAL_LABEL);
  const code = (suitIndex, rank) => `${letters[suitIndex]}${rank}`;

  // The deck, shuffled (Fisher-Yates), dealt as the server deals: seat by seat.
  const identities = [];
  variant.suits.forEach((suit, suitIndex) => {
    for (const rank of variant.ranks) {
      const copies = game.getNumCopiesOfCard(suit, rank, variant);
      for (let k = 0; k < copies; k++) identities.push({ suitIndex, rank });
    }
  });
  for (let i = identities.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [identities[i], identities[j]] = [identities[j], identities[i]];
  }

  let state = game.getInitialGameState(metadata);
  const apply = (action) => {
    state = game.gameReducer(state, action, false, false, false, false, metadata);
  };
  let nextOrder = 0;
  const draw = (playerIndex) => {
    if (nextOrder >= identities.length) return;
    const { suitIndex, rank } = identities[nextOrder];
    apply({ type: "draw", playerIndex, order: nextOrder, suitIndex, rank });
    nextOrder++;
  };
  const handSize = game.getCardsPerHand(options);
  for (let p = 0; p < players; p++) for (let k = 0; k < handSize; k++) draw(p);

  const skill = 0.7 + 0.3 * random.next(); // how often a player makes a sensible move
  const log = [{ format: "hanabi-log/1", players, variant: variantName, hand_memory: true }];
  if (emptyClues) log[0].empty_clues = true;
  const states = [snapshot(game, variant, state, code, null)];
  let lastClueType = -1; // the server's LastClueTypeGiven, for Alternating Clues
  const cannotBePlayed = new Set(); // the server's Card.CannotBePlayed, by order

  while (true) {
    const p = state.turn.currentPlayerIndex;
    const hand = state.hands[p];
    const slotOf = (order) => hand.length - hand.indexOf(order);
    const choice = choose(game, variant, state, identities, p, random, skill, emptyClues, lastClueType);

    if (choice.type === "clue") {
      const targetHand = state.hands[choice.target];
      const clue =
        choice.clueType === game.ClueType.Color
          ? game.newColorClue(variant.clueColors[choice.value])
          : game.newRankClue(choice.value);
      const list = targetHand.filter((order) => {
        const { suitIndex, rank } = identities[order];
        return game.isCardTouchedByClue(variant, clue, suitIndex, rank);
      });
      const line = { action: "hint", to: choice.target };
      if (choice.clueType === game.ClueType.Color) line.color = colorLabels[choice.value];
      else line.rank = choice.value;
      line.slots = list.map((order) => targetHand.length - targetHand.indexOf(order)).sort((a, b) => a - b);
      log.push(line);
      apply({
        type: "clue",
        clue: { type: choice.clueType, value: choice.value },
        giver: p,
        list,
        target: choice.target,
        ignoreNegative: false,
      });
      lastClueType = choice.clueType;
    } else {
      const { order } = choice;
      const { suitIndex, rank } = identities[order];
      log.push({ action: choice.type, card: code(suitIndex, rank), slot: slotOf(order) });
      // An inverted (orange) suit's card: a play is a discard and a discard is a play.
      const inverted = variant.suits[suitIndex].inverted;
      const attemptsPlay = (choice.type === "play") !== inverted;
      if (attemptsPlay) {
        const playable = game.getNextPlayableRanks(
          suitIndex,
          state.playStacks[suitIndex],
          state.playStackDirections[suitIndex],
          state.playStackStarts,
          variant,
          state.deck,
        );
        if (playable.includes(rank)) {
          apply({ type: "play", playerIndex: p, order, suitIndex, rank });
        } else {
          const num = state.strikes.length + 1;
          apply({ type: "strike", num, turn: state.turn.segment, order });
          apply({ type: "discard", playerIndex: p, order, suitIndex, rank, failed: true });
        }
      } else {
        apply({ type: "discard", playerIndex: p, order, suitIndex, rank, failed: false });
      }
      draw(p);
    }
    // The server marks the hand of a player who has taken their last turn (command_action.go,
    // action()); its EndTurn is the package's endTurnNum, set when the last card is drawn.
    const endTurn = state.turn.endTurnNum;
    const actedTurn = state.turn.turnNum - 1;
    if (endTurn !== null && endTurn !== actedTurn + players + 1) {
      for (const order of state.hands[p]) cannotBePlayed.add(order);
    }
    const end = checkEnd(game, variant, state, identities, endTurn, cannotBePlayed);
    if (end !== null) {
      apply({
        type: "gameOver",
        endCondition: end === "strikeout" ? game.EndCondition.Strikeout : game.EndCondition.Normal,
        playerIndex: p,
        votes: null,
      });
    }
    states.push(snapshot(game, variant, state, code, end));
    if (end !== null) break;
  }
  return { log, states };
}

/** The states as columns, one list per key (the fixture's README says which is which), the
 * hands after the first state only where they changed (by seat): compressed, the fixture is
 * then a few MB instead of ten; the test puts the states back together. */
function asColumns(states) {
  const columns = {};
  for (const key of Object.keys(states[0])) {
    if (key !== "hands" && key !== "end") columns[key] = states.map((state) => state[key]);
  }
  columns.hands = states.map((state, index) => {
    if (index === 0) return state.hands;
    const before = states[index - 1].hands;
    const changed = {};
    state.hands.forEach((hand, seat) => {
      if (hand.join() !== before[seat].join()) changed[seat] = hand;
    });
    return changed;
  });
  columns.end = states[states.length - 1].end;
  return columns;
}

/** The legal actions of seat p, and one of them: sensible with probability `skill`, else any. */
function choose(game, variant, state, identities, p, random, skill, emptyClues, lastClueType) {
  const hand = state.hands[p];
  const clues = [];
  if (state.clueTokens >= game.getAdjustedClueTokens(1, variant)) {
    for (let target = 0; target < state.hands.length; target++) {
      if (target === p) continue;
      const targetHand = state.hands[target];
      const kinds = [
        [game.ClueType.Color, variant.clueColors.map((_, i) => i), variant.colorCluesTouchNothing],
        [game.ClueType.Rank, variant.clueRanks, variant.rankCluesTouchNothing],
      ];
      for (const [clueType, values, touchNothingAllowed] of kinds) {
        if (variant.alternatingClues && clueType === lastClueType) continue;
        for (const value of values) {
          const clue =
            clueType === game.ClueType.Color
              ? game.newColorClue(variant.clueColors[value])
              : game.newRankClue(value);
          const touches = targetHand.some((order) => {
            const { suitIndex, rank } = identities[order];
            return game.isCardTouchedByClue(variant, clue, suitIndex, rank);
          });
          if (touches || emptyClues || touchNothingAllowed) {
            clues.push({ type: "clue", target, clueType, value, touches });
          }
        }
      }
    }
  }
  const plays = hand.map((order) => ({ type: "play", order }));
  const mayDiscard = !game.isAtMaxClueTokens(state.clueTokens, variant) || variant.hasInverted;
  const discards = mayDiscard ? hand.map((order) => ({ type: "discard", order })) : [];

  if (random.next() < skill) {
    // A careful player: plays what fits (an orange card by discarding it), else clues or discards.
    const fits = [];
    for (const order of hand) {
      const { suitIndex, rank } = identities[order];
      const playable = game.getNextPlayableRanks(
        suitIndex,
        state.playStacks[suitIndex],
        state.playStackDirections[suitIndex],
        state.playStackStarts,
        variant,
        state.deck,
      );
      if (playable.includes(rank)) {
        fits.push({ type: variant.suits[suitIndex].inverted ? "discard" : "play", order });
      }
    }
    const legalFits = fits.filter((a) => a.type === "play" || mayDiscard);
    if (legalFits.length > 0) return random.pick(legalFits);
    const touching = clues.filter((c) => c.touches);
    if (touching.length > 0 && (discards.length === 0 || random.next() < 0.5)) {
      return random.pick(touching);
    }
    if (discards.length > 0) return random.pick(discards);
  }
  // Any legal action: a clue, a discard or (less often: a blind play mostly fails) a play.
  const kinds = [
    [clues, 0.45],
    [discards, 0.4],
    [plays, 0.1],
  ].filter(([list]) => list.length > 0);
  let roll = random.next() * kinds.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [list, weight] of kinds) {
    roll -= weight;
    if (roll < 0) return random.pick(list);
  }
  return random.pick(kinds[kinds.length - 1][0]);
}

/** What Hanab Live's state says, in short keys (the fixture's README says which is which). */
function snapshot(game, variant, state, code, end) {
  const discards = [];
  for (const stack of state.discardStacks) {
    for (const order of stack) {
      const card = state.deck[order];
      discards.push(code(card.suitIndex, card.rank));
    }
  }
  // A slot's possible cards: one character per suit (Hanab Live's order), the ranks still
  // possible as a number from 0 to 31 (bit rank - 1) written in base 32 ("v": any rank).
  const hands = state.hands.map((hand) =>
    [...hand].reverse().map((order) => {
      const ranks = variant.suits.map(() => 0);
      for (const [suitIndex, rank] of state.deck[order].possibleCardsFromClues) {
        ranks[suitIndex] |= 1 << (rank - 1);
      }
      return ranks.map((bits) => bits.toString(32)).join("");
    }),
  );
  const out = {
    clues: state.clueTokens, // in its units: half tokens in Clue Starved (a clue costs 2)
    strikes: state.strikes.length,
    deck: state.cardsRemainingInTheDeck,
    turn: state.turn.turnNum,
    current: state.turn.currentPlayerIndex,
    stacks: state.playStacks.map((stack) => stack.length).join(""),
    discards: discards.sort().join(" "),
    score: state.score,
    max: state.stats.maxScore,
    pace: state.stats.pace,
    hands,
  };
  if (end !== null) out.end = end;
  return out;
}

// -- the plan: every variant, then the families topped up ---------------------------------

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const hl = path.resolve(args.hl);
  const game = await import(path.join(hl, "packages/game/src/index.ts"));
  const variantsJSON = JSON.parse(
    fs.readFileSync(path.join(hl, "packages/game/src/json/variants.json"), "utf8"),
  );
  let commit = args.commit;
  if (commit === null) {
    try {
      commit = execFileSync("git", ["-C", hl, "rev-parse", "HEAD"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim();
    } catch {
      commit = "unknown";
    }
  }

  const chosen = variantsJSON.filter(
    (v) => printable(v, game) !== null && (args.variants.length === 0 || args.variants.includes(v.name)),
  );
  const familyOf = new Map(chosen.map((v) => [v.name, families(v)]));
  const plan = [];
  chosen.forEach((v, index) => {
    for (let k = 0; k < args.perVariant; k++) {
      plan.push({ variant: v.name, players: 2 + ((index + k) % 4), emptyClues: false });
    }
  });
  const count = new Map();
  const tally = (entry) => {
    for (const family of familyOf.get(entry.variant)) count.set(family, (count.get(family) ?? 0) + 1);
  };
  plan.forEach(tally);
  const members = new Map();
  for (const [name, fams] of familyOf) {
    for (const family of fams) members.set(family, [...(members.get(family) ?? []), name]);
  }
  for (const [family, names] of [...members].sort()) {
    let k = 0;
    while ((count.get(family) ?? 0) < args.minFamily) {
      const entry = { variant: names[k % names.length], players: 2 + (k % 4), emptyClues: false };
      plan.push(entry);
      tally(entry);
      k++;
    }
  }
  for (const [name, least] of Object.entries(args.atLeast)) {
    if (!familyOf.has(name)) continue;
    let k = plan.filter((entry) => entry.variant === name).length;
    for (; k < least; k++) plan.push({ variant: name, players: 2 + (k % 4), emptyClues: false });
  }
  for (let k = 0; k < args.emptyClues && chosen.length > 0; k++) {
    plan.push({ variant: chosen[(k * 37) % chosen.length].name, players: 2 + (k % 4), emptyClues: true });
  }

  const lines = [
    JSON.stringify({
      fixture: FORMAT,
      hanab_live_commit: commit,
      seed: args.seed,
      variants: Object.fromEntries(
        chosen.map((v) => [
          v.name,
          {
            letters: v.suits.map((name) => PLAIN[name] ?? SPECIAL_LETTER).join(""),
            families: familyOf.get(v.name),
          },
        ]),
      ),
    }),
  ];
  if (args.dir) fs.mkdirSync(args.dir, { recursive: true });
  const started = Date.now();
  plan.forEach((entry, k) => {
    const seed = args.seed + k;
    const { log, states } = playGame(game, entry.variant, entry.players, seed, entry.emptyClues);
    lines.push(JSON.stringify({ seed, log, hl: asColumns(states) }));
    if (args.dir) {
      const name = path.join(args.dir, String(k).padStart(5, "0"));
      fs.writeFileSync(`${name}.log`, log.map((o) => JSON.stringify(o)).join("\n") + "\n");
      fs.writeFileSync(`${name}.hl.jsonl`, states.map((o) => JSON.stringify(o)).join("\n") + "\n");
    }
    if ((k + 1) % 500 === 0) {
      process.stderr.write(`${k + 1}/${plan.length} games, ${Math.round((Date.now() - started) / 1000)} s\n`);
    }
  });
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, zlib.gzipSync(lines.join("\n") + "\n", { level: 9 }));
  process.stderr.write(
    `${plan.length} games in ${chosen.length} variants, ${members.size} families -> ${args.out}\n`,
  );
}

await main();
