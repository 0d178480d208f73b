#!/usr/bin/env python3
"""Browser tests of `mancala serve` (issue 30) in real headless Chromium, driven by Selenium.

Each scenario plays the page as a person would (clicks, keys, typing) and checks what it shows
against the command line (`mancala play|analyze --json`), then saves a screenshot under
target/web-screenshots/. Run by scripts/web-tests.sh, which starts the server.

usage: web-tests.py URL MANCALA_BINARY SCREENSHOT_DIR
"""

import json
import subprocess
import sys
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

URL, MANCALA, SHOTS = sys.argv[1], sys.argv[2], Path(sys.argv[3])
SHOTS.mkdir(parents=True, exist_ok=True)


def cli(*args):
    """`mancala ARGS --json`, parsed."""
    out = subprocess.run([MANCALA, *args, "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def cli_error(*args):
    """The one-line message of a command the CLI refuses (without `error: `)."""
    out = subprocess.run([MANCALA, *args], capture_output=True, text=True)
    assert out.returncode != 0, args
    return out.stderr.strip().removeprefix("error: ")


def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        opts.add_argument(a)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


def settle(d, timeout=30):
    """Waits until the page has no request in flight for a moment (the engine may chain)."""
    end = time.time() + timeout
    quiet = 0
    while time.time() < end:
        if d.execute_script("return document.body.dataset.pending") in ("0", None):
            quiet += 1
            if quiet >= 3:
                return
        else:
            quiet = 0
        time.sleep(0.1)
    raise AssertionError("the page is still busy after %s s" % timeout)


def status(d):
    return d.find_element(By.ID, "status").text


def position(d):
    return d.find_element(By.ID, "position").get_attribute("value")


def moves(d):
    return [li.get_attribute("data-move") for li in d.find_elements(By.CSS_SELECTOR, "#movelist li:not(.round)")]


def new_game(d, game, holes, seeds, engine="N", match=False):
    Select(d.find_element(By.ID, "game")).select_by_value(game)
    for field, v in (("holes", holes), ("seeds", seeds)):
        e = d.find_element(By.ID, field)
        e.clear()
        e.send_keys(str(v))
    box = d.find_element(By.ID, "match")
    if box.is_selected() != match:
        box.click()
    Select(d.find_element(By.ID, "engine")).select_by_value(engine)
    settle(d)
    d.find_element(By.ID, "new").click()
    settle(d)


def legal_pits(d, side):
    return d.find_elements(By.CSS_SELECTOR, f'#board .pit.legal[data-side="{side}"]')


def shot(d, name):
    d.save_screenshot(str(SHOTS / f"{name}.png"))


def test_opens(d):
    d.get(URL)
    end = time.time() + 10
    while d.execute_script("return document.body.dataset.ready") != "true":
        assert time.time() < end, "the page did not load"
        time.sleep(0.1)
    settle(d)
    assert "South to move" in status(d), status(d)
    assert len(d.find_elements(By.CSS_SELECTOR, "#board .pit")) == 12  # Kalah(6,4)
    shot(d, "01-open")


def test_kalah_to_the_end(d):
    """Kalah(4,3), South by clicks (the first legal pit), the engine North, to the end."""
    new_game(d, "kalah", 4, 3, engine="N")
    for _ in range(100):
        if "Game over" in status(d):
            break
        pits = legal_pits(d, "S")
        assert pits, status(d)
        pits[0].click()
        settle(d)
    assert "Game over" in status(d), status(d)
    played = moves(d)
    want = cli("play", "kalah", "--holes", "4", "--seeds", "3", "--moves", " ".join(played))
    assert want["position"] == position(d), (want["position"], position(d))
    s, n = want["score"]
    assert status(d).startswith(f"South {s}, North {n}."), status(d)
    shot(d, "02-kalah-4x3-over")


def test_hint_equals_analyze(d):
    new_game(d, "kalah", 4, 3, engine="N")
    legal_pits(d, "S")[1].click()  # S2: South moves again (its last seed in the store)
    settle(d)
    d.find_element(By.ID, "hint").click()
    settle(d)
    pos = position(d)
    want = cli("analyze", "kalah", "--position", pos)
    shown = {
        int(p.get_attribute("data-move")): int(p.get_attribute("data-value"))
        for p in d.find_elements(By.CSS_SELECTOR, "#board .pit[data-value]")
    }
    assert shown == {m["move"]: m["value"] for m in want["moves"]}, (shown, want)
    assert not d.find_element(By.ID, "redo").is_enabled(), "nothing to redo"
    bar = d.find_element(By.ID, "value-text")
    assert bar.get_attribute("data-value") == "%+d" % want["value"], bar.text
    # Solve (the key S): the value, the best moves and the principal variation of `solve`.
    d.find_element(By.TAG_NAME, "body").send_keys("s")
    settle(d)
    solved = cli("solve", "kalah", "--position", pos)
    pv = " ".join(f"{m['side']}{m['move']}" for m in solved["pv"])
    shown = d.find_element(By.ID, "pv").text
    assert shown.startswith("Value %+d" % solved["value"]) and shown.endswith(pv), (shown, pv)
    shot(d, "03-hint")


def test_hint_at_the_start_is_instant(d):
    """Kalah(6,4)'s start (issue 54): Hint answers every move exactly from the opening book in
    well under a second, the bar says so; after a move and Undo the page shows them again from
    what it kept."""
    new_game(d, "kalah", 6, 4, engine="none")
    if d.find_element(By.ID, "hint").get_attribute("aria-pressed") == "true":
        d.find_element(By.ID, "hint").click()
        settle(d)
    started = time.time()
    d.find_element(By.ID, "hint").click()
    settle(d, timeout=5)
    took = time.time() - started
    want = cli("analyze", "kalah")
    shown = {
        int(p.get_attribute("data-move")): int(p.get_attribute("data-value"))
        for p in d.find_elements(By.CSS_SELECTOR, "#board .pit[data-value]")
    }
    assert shown == {m["move"]: m["value"] for m in want["moves"]}, (shown, want)
    text = d.find_element(By.ID, "value-text").text
    assert "+8" in text and "book" in text, text
    # settle() waits three quiet looks 0.1 s apart: the answer itself came well within this.
    assert took < 1.5, f"the hint took {took:.2f} s"
    # Hint off, a move, Undo, Hint on: the start's values come back from what the page kept.
    d.find_element(By.ID, "hint").click()
    settle(d)
    legal_pits(d, "S")[0].click()  # S1: North to move (the engine is off)
    settle(d)
    d.find_element(By.ID, "undo").click()
    settle(d)
    d.find_element(By.ID, "hint").click()
    settle(d, timeout=2)
    assert d.find_element(By.ID, "value-text").text == text
    d.find_element(By.ID, "hint").click()  # off again for the next scenarios
    settle(d)
    shot(d, "03b-hint-at-the-start")


def test_undo_and_keys(d):
    new_game(d, "kalah", 4, 3, engine="none")
    start = position(d)
    d.find_element(By.TAG_NAME, "body").send_keys("1")  # the keyboard plays move 1
    settle(d)
    after = position(d)
    assert moves(d) == ["S1"] and after != start, (moves(d), after)
    d.find_element(By.ID, "undo").click()
    settle(d)
    assert moves(d) == [] and position(d) == start
    d.find_element(By.TAG_NAME, "body").send_keys("r")  # redo
    settle(d)
    assert position(d) == after
    shot(d, "04-undo-redo")


def test_paste_a_position(d):
    new_game(d, "kalah", 4, 3, engine="none")
    box = d.find_element(By.ID, "position")
    bad = "1,2,3/1,2,3/0,0/S,"
    box.clear()
    box.send_keys(bad, Keys.ENTER)
    settle(d)
    err = d.find_element(By.ID, "error").text
    # The CLI's message, naming the page's field where the CLI names its flag (issue 53).
    want = cli_error("play", "kalah", "--position", bad).replace("--position", '"position"', 1)
    assert err == want, (err, want)
    good = "1,2,0,1/0,1,1,2/10,14/N"
    box.clear()
    box.send_keys(good, Keys.ENTER)
    settle(d)
    assert position(d) == good and "North to move" in status(d), (position(d), status(d))
    counts = [int(p.get_attribute("data-seeds")) for p in d.find_elements(By.CSS_SELECTOR, '#board .pit[data-side="S"]')]
    assert counts == [1, 2, 0, 1], counts
    assert d.find_element(By.ID, "error").text == ""
    shot(d, "05-pasted")


def test_dakon_match_round_2(d):
    """Dakon 3x2, the README's match: round 1 by clicks, then round 2 with North's burnt pits."""
    new_game(d, "dakon", 3, 2, engine="none", match=True)
    for mv in [3, 2, 2, 3, 1, 3]:
        side = "S" if "South to move" in status(d) else "N"
        d.find_element(By.CSS_SELECTOR, f'#board .pit.legal[data-move="{mv}"][data-side="{side}"]').click()
        settle(d)
    burnt = d.find_elements(By.CSS_SELECTOR, "#board .pit.burnt")
    assert len(burnt) == 2, len(burnt)
    assert position(d) == "2,2,2/x,x,2/3,1/S", position(d)
    assert "Round 2" in d.find_element(By.ID, "movelist").text
    want = cli("match", "dakon", "--holes", "3", "--seeds", "2", "--moves", "3,2,2,3,1,3")
    assert want["round"] == 2 and want["position"] == position(d)
    shot(d, "06-dakon-round-2")


def test_stop(d):
    """A long search (the hint on Kalah(6,6)): the spinner, then Stop; the bounds it proved."""
    if d.find_element(By.ID, "hint").get_attribute("aria-pressed") != "true":
        d.find_element(By.ID, "hint").click()
    Select(d.find_element(By.ID, "game")).select_by_value("kalah")
    for field, v in (("holes", 6), ("seeds", 6)):
        e = d.find_element(By.ID, field)
        e.clear()
        e.send_keys(str(v))
    Select(d.find_element(By.ID, "engine")).select_by_value("none")
    d.find_element(By.ID, "new").click()
    end = time.time() + 10
    while not d.find_element(By.ID, "busy").is_displayed():
        assert time.time() < end, "no spinner"
        time.sleep(0.05)
    # While it runs (issue 54): the best move so far and the proven bounds, streamed, on the
    # bar and the spinner's line, before any final answer.
    bar = d.find_element(By.ID, "value-text")
    end = time.time() + 10
    while not bar.get_attribute("data-best-so-far"):
        assert time.time() < end, "no best move so far: %r" % bar.text
        time.sleep(0.05)
    assert bar.text.startswith("Thinking: best so far"), bar.text
    assert "value in [" in bar.text, bar.text
    assert bar.get_attribute("data-value") == "", "a final value while the search runs"
    best = int(bar.get_attribute("data-best-so-far"))
    assert 1 <= best <= 6, best
    busy = d.find_element(By.ID, "busy-text").text
    assert "valuing every move" in busy and "best so far" in busy, busy
    # Every pit shows what is proven of its move: a value or a range.
    values = [p.get_attribute("data-value") for p in d.find_elements(By.CSS_SELECTOR, "#board .pit[data-value]")]
    assert len(values) == 6, values
    shot(d, "08-searching")
    started = time.time()
    d.find_element(By.ID, "stop").click()
    settle(d)
    assert time.time() - started < 5, "Stop took %.1f s" % (time.time() - started)
    assert not d.find_element(By.ID, "busy").is_displayed()
    assert "stopped before it was exact" in d.find_element(By.ID, "value-text").text
    values = [p.get_attribute("data-value") for p in d.find_elements(By.CSS_SELECTOR, "#board .pit[data-value]")]
    assert len(values) == 6 and any(".." in v for v in values), values
    shot(d, "09-stopped")


def test_phone_size(d):
    d.set_window_size(390, 844)
    new_game(d, "san-yao", 5, 5, engine="N")
    board = d.find_element(By.ID, "board")
    assert board.size["width"] <= 390, board.size
    legal_pits(d, "S")[0].click()
    settle(d)
    assert len(moves(d)) >= 2, moves(d)  # South's move and the engine's answer
    shot(d, "07-phone")
    d.set_window_size(1280, 900)


def test_review(d):
    """The Review view: a pasted Kalah(4,3) game, a bar per move with the CLI's losses, the
    mistakes marked on its move list, and a bar that sets the board to its position."""
    new_game(d, "kalah", 4, 3, engine="none")
    line = "3 1 2 4 1"
    want = cli("review", "kalah", "--holes", "4", "--seeds", "3", "--moves", line)
    box = d.find_element(By.ID, "review-input")
    box.clear()
    box.send_keys(line)
    d.find_element(By.ID, "review-run").click()
    end = time.time() + 30
    while d.execute_script("return document.body.dataset.review") != "done":
        assert time.time() < end, d.find_element(By.ID, "review-error").text or "no review"
        time.sleep(0.1)
    bars = d.find_elements(By.CSS_SELECTOR, "#review-chart .bar")
    assert len(bars) == len(want["moves"]), len(bars)
    items = d.find_elements(By.CSS_SELECTOR, "#review-moves li")
    for bar, li, m in zip(bars, items, want["moves"]):
        assert f"lost {m['loss']}: {m['class']}" in bar.get_attribute("title"), (bar.get_attribute("title"), m)
        assert m["class"] in li.get_attribute("class").split(), (li.get_attribute("class"), m)
    marked = [li.text for li in items if {"mistake", "blunder"} & set(li.get_attribute("class").split())]
    assert marked == [f"{m['side']}{m['move']}" for m in want["moves"] if m["class"] in ("mistake", "blunder")], marked
    # The fourth move's bar: the board goes to the position it was played in.
    bars[3].click()
    settle(d)
    assert position(d) == want["moves"][3]["position"], (position(d), want["moves"][3])
    shot(d, "08-review")
    # The thresholds fields: the classes are the CLI's with --mistake 5 --blunder 7.
    want = cli("review", "kalah", "--holes", "4", "--seeds", "3", "--moves", line,
               "--mistake", "5", "--blunder", "7")
    for field, value in (("review-mistake", "5"), ("review-blunder", "7")):
        box = d.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    d.execute_script("document.body.dataset.review = ''")
    d.find_element(By.ID, "review-run").click()
    end = time.time() + 30
    while d.execute_script("return document.body.dataset.review") != "done":
        assert time.time() < end, d.find_element(By.ID, "review-error").text or "no review"
        time.sleep(0.1)
    items = d.find_elements(By.CSS_SELECTOR, "#review-moves li")
    got = [next(c for c in li.get_attribute("class").split() if c != "current") for li in items]
    assert got == [m["class"] for m in want["moves"]], (got, want["moves"])


def main():
    d = browser()
    tests = [test_opens, test_kalah_to_the_end, test_hint_equals_analyze,
             test_hint_at_the_start_is_instant, test_undo_and_keys,
             test_paste_a_position, test_dakon_match_round_2, test_stop, test_phone_size,
             test_review]
    failed = 0
    try:
        for t in tests:
            started = time.time()
            try:
                t(d)
                print(f"ok   {t.__name__} ({time.time() - started:.1f} s)")
            except Exception as e:  # report every scenario, then fail
                failed += 1
                shot(d, f"failed-{t.__name__}")
                print(f"FAIL {t.__name__}: {e!r}")
    finally:
        d.quit()
    print(f"{len(tests) - failed} passed, {failed} failed; screenshots in {SHOTS}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
