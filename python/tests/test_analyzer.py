"""mancala.Analyzer: the book, the memory, bounds when stopped, and values equal to solve's."""

import mancala


def test_the_start_of_kalah_is_answered_from_the_book(tmp_path):
    a = mancala.Analyzer(threads=1, tables=False, memory=tmp_path / "m.sqlite")
    r = a.analyze(mancala.Position("kalah"))
    assert r.source == "book"
    assert r.complete
    assert r.values == {1: -14, 2: -10, 3: 8, 4: -2, 5: -8, 6: 4}
    assert r.best == [3] and r.value == 8
    assert r.seconds < 0.1


def test_values_equal_solve_and_come_back_from_the_memory(tmp_path):
    memory = tmp_path / "m.sqlite"
    pos = mancala.Position("kalah", holes=4, seeds=3)
    a = mancala.Analyzer(threads=1, tables=False, memory=memory, book=False)
    first = a.analyze(pos)
    assert first.source == "search"
    for move, child in pos.children():
        assert first.values[move] == mancala.solve(child, threads=1).value
    again = mancala.Analyzer(threads=1, tables=False, memory=memory).analyze(pos)
    assert again.source == "memory"
    assert again.values == first.values
    answer = a.solve(pos)
    assert answer.value == 6 and answer.complete


def test_a_time_limit_answers_with_bounds_not_an_exception():
    pos = mancala.Position("kalah", holes=6, seeds=6)
    a = mancala.Analyzer(threads=1, tables=False, memory=False)
    r = a.analyze(pos, time_limit=0.2)
    assert not r.complete
    lo, hi = r.value_bounds
    assert -72 <= lo <= hi <= 72
    assert set(r.bounds) == set(pos.legal_moves())


def test_analyze_many_answers_each_position():
    a = mancala.Analyzer(threads=1, tables=False, memory=False)
    positions = [mancala.Position("kalah", holes=3, seeds=3), mancala.Position("kalah", holes=4, seeds=3)]
    rs = a.analyze_many(positions)
    assert [r.value for r in rs] == [mancala.solve(p, threads=1).value for p in positions]
