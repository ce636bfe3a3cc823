// What Hanab Live's server decides and its game package does not, shared by driver.mjs and
// export_check.mjs: when a game ends (written from game.go, read and not copied).

/** The server's Game.CheckEnd (game.go) for the rules in play here; null while the game goes on. */
export function checkEnd(game, variant, state, identities, endTurn, cannotBePlayed) {
  if (state.strikes.length >= game.MAX_STRIKES) return "strikeout";
  if (endTurn !== null && state.turn.turnNum === endTurn) return "final_round";
  if (state.score === state.stats.maxScore) return "max_score";
  for (const [suitIndex, stack] of state.playStacks.entries()) {
    if (stack.length === variant.stackSize) continue;
    const needed = stack.length + 1;
    const alive = identities.some((card, order) => {
      if (card.suitIndex !== suitIndex || card.rank !== needed) return false;
      const cardState = state.deck[order];
      const discarded = cardState !== undefined && cardState.location === "discard";
      return !discarded && !cannotBePlayed.has(order);
    });
    if (alive) return null;
  }
  return "no_playable";
}
