from pbm.rules.sim import simulate


def test_autopilot_games_finish() -> None:
    result = simulate(3, 4, 1, "autopilot")
    assert result.finished == 3
