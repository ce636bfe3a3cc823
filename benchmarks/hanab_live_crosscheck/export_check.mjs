// Our export to Hanab Live, checked by Hanab Live's own code (decision 0121).
//
//   PYTHONPATH=. .venv/bin/python tests/support/hanab_live_export.py /tmp/exports.jsonl
//   /work/hanab-live-deps/node_modules/.bin/tsx benchmarks/hanab_live_crosscheck/export_check.mjs \
//       /work/hanab-live /tmp/exports.jsonl tests/data/hanab_live/exports.jsonl.gz \
//       --commit 8503cd84a44d4ffdadb40e3d5da56dd853d00e51
//
// For each game our export wrote (its JSON and its replay link), this decodes the link with
// Hanab Live's `expand` (packages/client/src/lobby/hypoCompress.ts, run from the checkout,
// never copied here: the script writes a copy with its two package imports pointed at the
// checkout's files into the checkout's `.export-check/`, a scratch folder), checks that the
// decoded deck, actions and variant are our JSON's, then replays the JSON's actions with
// Hanab Live's game package as its server would (driver.mjs: a clue with the cards it
// touches, a play that fits or a strike, an orange card's inversion, the draw) and writes
// what it saw at the end: the score, the stacks, the discards, the clue tokens, the strikes,
// and whether the server would have ended the game after the last action and not before.

import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

import { checkEnd } from "./server.mjs";

const FORMAT = "hanab-live-export-check/1";

function parseArgs(argv) {
  const [hl, input, output, ...rest] = argv;
  if (output === undefined) {
    throw new Error("usage: export_check.mjs HANAB_LIVE IN.jsonl OUT.jsonl.gz [--commit SHA]");
  }
  const at = rest.indexOf("--commit");
  return { hl: path.resolve(hl), input, output, commit: at >= 0 ? rest[at + 1] : "unknown" };
}

/** Hanab Live's `expand`, from its own file, its imports pointed at the checkout. */
async function loadExpand(hl) {
  const source = fs.readFileSync(
    path.join(hl, "packages/client/src/lobby/hypoCompress.ts"),
    "utf8",
  );
  const gameIndex = path.join(hl, "packages/game/src/index.ts");
  const pointed = source
    .replaceAll('"@hanabi-live/game"', JSON.stringify(gameIndex))
    .replace('import { isEqual } from "lodash";', "const isEqual = () => false;");
  const dir = path.join(hl, ".export-check");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "hypoCompress.ts");
  fs.writeFileSync(file, pointed);
  return (await import(file)).expand;
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Replay `data` (our JSON game) with the game package as the server does; what it saw. */
function replay(game, data) {
  const variantName = data.options.variant;
  const emptyClues = data.options.emptyClues === true;
  const variant = game.getVariant(variantName);
  const players = data.players.length;
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
    seed: "",
  };
  const identities = data.deck;
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

  const problems = [];
  let endedAt = null; // the action after which the server's CheckEnd ends the game
  const cannotBePlayed = new Set();
  data.actions.forEach((action, index) => {
    if (endedAt !== null) {
      problems.push(`action ${index} after the end`);
      return;
    }
    const p = state.turn.currentPlayerIndex;
    if (action.type === 2 || action.type === 3) {
      const clueType = action.type === 2 ? game.ClueType.Color : game.ClueType.Rank;
      const clue =
        clueType === game.ClueType.Color
          ? game.newColorClue(variant.clueColors[action.value])
          : game.newRankClue(action.value);
      const list = state.hands[action.target].filter((order) => {
        const { suitIndex, rank } = identities[order];
        return game.isCardTouchedByClue(variant, clue, suitIndex, rank);
      });
      if (list.length === 0 && !emptyClues && !variant.colorCluesTouchNothing && !variant.rankCluesTouchNothing) {
        problems.push(`action ${index}: a clue touching nothing`);
      }
      if (action.target === p) problems.push(`action ${index}: a clue to oneself`);
      apply({
        type: "clue",
        clue: { type: clueType, value: action.value },
        giver: p,
        list,
        target: action.target,
        ignoreNegative: false,
      });
    } else {
      const order = action.target;
      if (!state.hands[p].includes(order)) problems.push(`action ${index}: card ${order} not in hand`);
      const { suitIndex, rank } = identities[order];
      const inverted = variant.suits[suitIndex].inverted;
      const attemptsPlay = (action.type === 0) !== inverted;
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
          apply({ type: "strike", num: state.strikes.length + 1, turn: state.turn.segment, order });
          apply({ type: "discard", playerIndex: p, order, suitIndex, rank, failed: true });
        }
      } else {
        apply({ type: "discard", playerIndex: p, order, suitIndex, rank, failed: false });
      }
      draw(p);
    }
    const endTurn = state.turn.endTurnNum;
    const actedTurn = state.turn.turnNum - 1;
    if (endTurn !== null && endTurn !== actedTurn + players + 1) {
      for (const order of state.hands[p]) cannotBePlayed.add(order);
    }
    if (checkEnd(game, variant, state, identities, endTurn, cannotBePlayed)) endedAt = index;
  });
  const discards = [];
  for (const stack of state.discardStacks) {
    for (const order of stack) discards.push(order);
  }
  return {
    score: state.score,
    stacks: state.playStacks.map((stack) => stack.length).join(""),
    discards: discards.sort((a, b) => a - b),
    clues: state.clueTokens,
    strikes: state.strikes.length,
    over: endedAt === data.actions.length - 1,
    problems,
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const game = await import(path.join(args.hl, "packages/game/src/index.ts"));
  const expand = await loadExpand(args.hl);
  const lines = [JSON.stringify({ fixture: FORMAT, hanab_live_commit: args.commit })];
  let links = 0;
  let decoded = 0;
  let clean = 0;
  let over = 0;
  const variants = new Set();
  for (const text of fs.readFileSync(args.input, "utf8").split("\n")) {
    if (text === "") continue;
    const { plan, json, url } = JSON.parse(text);
    variants.add(json.options.variant);
    const out = { plan, url };
    if (url !== null) {
      links++;
      const back = JSON.parse(expand(url.split("/shared-replay-json/")[1]));
      out.expanded =
        same(back.deck, json.deck) &&
        same(back.actions, json.actions) &&
        back.options.variant === json.options.variant &&
        back.players.length === json.players.length;
      decoded += out.expanded;
    }
    out.hl = replay(game, json);
    clean += out.hl.problems.length === 0;
    over += out.hl.over;
    lines.push(JSON.stringify(out));
  }
  fs.writeFileSync(args.output, zlib.gzipSync(lines.join("\n") + "\n", { level: 9 }));
  const games = lines.length - 1;
  console.log(
    `${games} games in ${variants.size} variants: ${links} links, ${decoded} decoded to our JSON by expand; ` +
      `${clean} replayed without a problem, ${over} ended by the server exactly at their last action`,
  );
}

await main();
