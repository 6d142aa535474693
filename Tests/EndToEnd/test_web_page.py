"""The search page in a real browser (Debian's Chromium, headless, driven by Selenium) against the real
daemon, with a Python client on the same session (protocol/websocket.md):

1. Typing a query shows highlighted hits and "N hits in X ms"; engine text is escaped, never run.
2. Ticking a facet value refines the hits and the counts; "Clear filters" undoes it.
3. Setting the histogram's range (keyboard on its slider) filters the hits to that range.
4. A Python client on the session changes the query: the page shows it within a second; the page's
   typing and facet clicks reach the Python client.
5. Keyboard only: / focuses the box, arrows move through hits, Enter opens the record, Escape closes it.
6. Sort-by a standard replica reorders the hits; a virtual replica shows the relevant-sort toggle.
7. Scrolling to the end loads the next page; the hierarchical menu refines by category.
8. Readable at 320 px (no horizontal scroll); the console has no error after any test; a screenshot is
   written (.build/screenshots/search-page.png; with QUARRY_UPDATE_SCREENSHOT=1 also the README's).

The page speaks the same JSON-RPC whatever the backend, so these run with the embedded engine only.
"""
import datetime
import os
import shutil
import time

import pytest

from harness import ROOT, TIMEOUT
from web_support import WebDaemon

pytestmark = pytest.mark.skipif(
    os.environ.get("QUARRY_BACKEND") == "typesense",
    reason="the page is backend-independent (it speaks the socket's JSON-RPC); browser tests run once, embedded")

selenium = pytest.importorskip("selenium")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException  # noqa: E402

BRANDS = ["Acme", "Globex", "Initech", "Umbrella"]
WORDS = ["river lamp", "stone bowl", "light chair", "museum print", "echo speaker", "river stone table"]
CATEGORIES = [("Home", "Home > Lighting"), ("Home", "Home > Furniture"), ("Audio", "Audio > Speakers")]


def products(count=60):
    items = []
    for i in range(count):
        top, sub = CATEGORIES[i % 3]
        items.append({
            "objectID": str(i), "title": f"{WORDS[i % len(WORDS)]} {i}", "brand": BRANDS[i % 4],
            "price": 5 + (i * 7) % 200, "released": 1_600_000_000 + i * 86_400 * 10,
            "description": "A sturdy piece made by hand. " * 8 + f"It pairs with the {WORDS[(i + 1) % len(WORDS)]}.",
            "category": {"lvl0": top, "lvl1": sub}})
    items.append({"objectID": "x", "title": "river <img src=x id=injected> & <b>bold</b>", "brand": "Acme", "price": 50,
                  "released": 1_600_000_000, "description": "escaped", "category": {"lvl0": "Home", "lvl1": "Home > Lighting"}})
    return items


@pytest.fixture
def shop(data_dir, short_tmp):
    daemon = WebDaemon(data_dir, os.path.join(short_tmp, "q.sock"))
    admin = daemon.connect()
    admin.result("setSettings", {"index": "products", "settings": {
        "searchableAttributes": ["title", "description"],
        "attributesForFaceting": ["brand", "price", "released", "category.lvl0", "category.lvl1"],
        "replicas": ["products_price_asc", "virtual(products_price_desc)"]}})
    admin.result("saveObjects", {"index": "products", "objects": products()})
    admin.result("setSettings", {"index": "products_price_asc", "settings": {"ranking": ["asc(price)", "typo", "words",
                                                                                       "proximity", "attribute", "exact"]}})
    admin.result("setSettings", {"index": "products_price_desc", "settings": {"customRanking": ["desc(price)"]}})
    admin.close()
    yield daemon
    daemon.kill()


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    yield driver
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    driver.quit()
    assert not errors, f"the browser console has errors: {errors}"


def wait(driver, condition, timeout=TIMEOUT, message=""):
    # Each keystroke re-renders the hits, so an element read a moment ago may be gone: look again.
    return WebDriverWait(driver, timeout, poll_frequency=0.02, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: condition(d), message)


def act(driver, action):
    """Does `action` (a click, a key) on an element it looks up, again if a re-render replaced the element first:
    a stale element is found stale before any event reaches it, so nothing is done twice."""
    wait(driver, lambda d: action(d) or True)


def press(driver, key):
    """Presses `key` on the keyboard, to whatever has focus, as a person does: no element is looked up, so a
    re-render replacing the focused element between lookup and key cannot lose the key or refuse it."""
    ActionChains(driver).send_keys(key).perform()


def texts(driver, selector):
    """The text of every element `selector` matches, read in one step (no element can go stale midway)."""
    return driver.execute_script("return [...document.querySelectorAll(arguments[0])].map(e => e.textContent)", selector)


def open_page(driver, daemon, session="shop"):
    try:
        driver.get(f"http://127.0.0.1:{daemon.port}/#key={daemon.keys['search']}&session={session}&index=products")
    except WebDriverException:
        # A refused page says nothing of why: tell a daemon that exited (with its log) from one still running.
        assert daemon.process.poll() is None, f"the daemon exited ({daemon.process.returncode}): {daemon.log_text()}"
        raise
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#hits .hit"), message="no hits at start")


def expected_hits(daemon, query, **params):
    client = daemon.connect()
    try:
        return client.result("search", {"index": "products", "query": query, **params})["nbHits"]
    finally:
        client.close()


def stats(driver):
    return driver.find_element(By.ID, "stats").text


def hit_count(driver):
    text = stats(driver)
    return int(text.split(" ")[0].replace(",", "")) if text else -1


def type_query(driver, text):
    box = driver.find_element(By.ID, "q")
    box.clear()
    box.send_keys(text)


def hit_titles(driver):
    return texts(driver, "#hits .hit h2")


def test_typing_shows_highlighted_hits(shop, browser):
    open_page(browser, shop)
    type_query(browser, "lamp")
    # Ten titles and ten descriptions ("It pairs with the river lamp") match. The results of "lam" may show
    # first, with "lam" marked: wait for those of the whole word.
    marked = lambda d: [mark.lower() for mark in texts(d, "#hits .hit h2 mark")]
    wait(browser, lambda d: hit_count(d) == 20 and "lamp" in hit_titles(d)[0] and set(marked(d)) == {"lamp"},
         message=stats(browser))
    assert " in " in stats(browser) and stats(browser).endswith(" ms")
    # Snippets come from the match ranges of the long text: only a window of it, with its matches marked.
    type_query(browser, "pairs")
    wait(browser, lambda d: {mark.lower() for mark in texts(d, "#hits .snippet mark")} == {"pairs"})
    snippet = texts(browser, "#hits .snippet")[0]
    assert "…" in snippet and len(snippet) < 260


def test_engine_text_is_escaped(shop, browser):
    open_page(browser, shop)
    type_query(browser, "bold")
    wait(browser, lambda d: hit_count(d) == 1)
    assert "<img src=x id=injected>" in hit_titles(browser)[0]
    assert not browser.find_elements(By.ID, "injected")
    assert not browser.find_elements(By.CSS_SELECTOR, "#hits b")


def test_facet_toggle_refines_counts_and_clear_undoes(shop, browser):
    open_page(browser, shop)
    wait(browser, lambda d: hit_count(d) == 61)
    globex = "//section[@data-attribute='brand']//label[span[@class='value' and text()='Globex']]"
    wait(browser, lambda d: d.find_element(By.XPATH, globex).find_element(By.CLASS_NAME, "count").text == "15")
    act(browser, lambda d: d.find_element(By.XPATH, globex).click())
    wait(browser, lambda d: hit_count(d) == 15)
    assert all("Globex" in meta for meta in texts(browser, "#hits .hit .meta"))
    # The histogram's counts refine with it: its bars now count Globex's prices only.
    type_query(browser, "river")
    refined = expected_hits(shop, "river", filters="brand:Globex")
    wait(browser, lambda d: hit_count(d) == refined)
    browser.find_element(By.ID, "clear").click()
    wait(browser, lambda d: hit_count(d) == expected_hits(shop, "river") > refined)


def test_histogram_range_filters_hits(shop, browser):
    open_page(browser, shop)
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".histogram[data-attribute='price'] .bar")) == 24)
    # Dates are shown as dates.
    days = sorted(datetime.datetime.fromtimestamp(p["released"], datetime.timezone.utc).date().isoformat() for p in products())
    released = ".histogram[data-attribute='released'] .range-label"
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, released).text == f"{days[0]} – {days[-1]}",
         message="dates not shown as dates")
    act(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".histogram[data-attribute='price'] input[data-bound='upper']").click())
    press(browser, Keys.HOME)  # 5 .. 5
    cheapest = len([p for p in products() if p["price"] == 5])
    wait(browser, lambda d: hit_count(d) == cheapest, message=stats(browser))
    # The results re-rendered the sliders, and the one being moved has its focus back: the next keys move it,
    # also those that arrive while results re-render it again.
    assert browser.switch_to.active_element.get_attribute("data-bound") == "upper"
    for _ in range(45):
        press(browser, Keys.ARROW_RIGHT)  # 5 .. 50
    wait(browser, lambda d: 0 < hit_count(d) < 61, message=stats(browser))
    expected = len([p for p in products() if 5 <= p["price"] <= 50])
    wait(browser, lambda d: hit_count(d) == expected, message=stats(browser))
    assert texts(browser, ".histogram[data-attribute='price'] .range-label") == ["5 – 50"]



def test_facet_value_keeps_focus_for_the_keyboard(shop, browser):
    open_page(browser, shop)
    everything = expected_hits(shop, "")
    acme = "//section[@data-attribute='brand']//label[span[text()='Acme']]/input"
    act(browser, lambda d: d.find_element(By.XPATH, acme).send_keys(Keys.SPACE))
    wait(browser, lambda d: hit_count(d) == expected_hits(shop, "", filters="brand:Acme") < everything)
    # The results re-rendered the list; Space again unticks the same value.
    assert browser.switch_to.active_element.get_attribute("type") == "checkbox"
    press(browser, Keys.SPACE)
    wait(browser, lambda d: hit_count(d) == everything)


def test_python_client_and_page_share_the_session(shop, browser):
    open_page(browser, shop)
    python = shop.connect()
    python.result("openSession", {"session": "shop"})
    python.result("setQuery", {"session": "shop", "query": "speaker"})
    started = time.monotonic()
    wait(browser, lambda d: d.find_element(By.ID, "q").get_attribute("value") == "speaker", timeout=1.0)
    speakers = expected_hits(shop, "speaker")
    wait(browser, lambda d: hit_count(d) == speakers and "speaker" in hit_titles(d)[0], timeout=1.0)
    assert time.monotonic() - started < 1.0
    # The page's typing reaches the Python client.
    type_query(browser, "chair")
    deadline = time.monotonic() + TIMEOUT
    seen = None
    while time.monotonic() < deadline and seen != "chair":
        message = python.receive(deadline - time.monotonic())
        if message and message.get("method") == "stateChanged":
            seen = message["params"]["state"]["query"]
    assert seen == "chair"
    python.close()


def test_keyboard_only(shop, browser):
    open_page(browser, shop)
    body = browser.find_element(By.TAG_NAME, "body")
    browser.find_element(By.ID, "stats").click()
    body.send_keys("/")
    assert browser.switch_to.active_element.get_attribute("id") == "q"
    browser.switch_to.active_element.send_keys("table")
    tables = expected_hits(shop, "table")
    wait(browser, lambda d: hit_count(d) == tables and "table" in hit_titles(d)[0])
    browser.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    assert "hit" in browser.switch_to.active_element.get_attribute("class")
    browser.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    second = browser.switch_to.active_element.get_attribute("data-object-id")
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    dialog = wait(browser, lambda d: d.find_element(By.ID, "record") if d.find_element(By.ID, "record").get_attribute("open") is not None else None)
    wait(browser, lambda d: '"objectID": "%s"' % second in dialog.text)
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: d.find_element(By.ID, "record").get_attribute("open") is None)


def test_sort_by_replica_and_relevant_sort_toggle(shop, browser):
    open_page(browser, shop)
    sort = browser.find_element(By.ID, "sort")
    options = [o.get_attribute("value") for o in sort.find_elements(By.TAG_NAME, "option")]
    assert options == ["products", "products_price_asc", "products_price_desc"]
    sort.find_element(By.CSS_SELECTOR, "option[value='products_price_asc']").click()

    def prices(driver):
        return [int(meta.split(" · ")[1]) for meta in texts(driver, "#hits .hit .meta")]
    wait(browser, lambda d: prices(d)[:5] == sorted(prices(d))[:5] and prices(d)[0] == 5)
    assert browser.find_element(By.ID, "relevant").get_attribute("hidden") is not None
    sort.find_element(By.CSS_SELECTOR, "option[value='products_price_desc']").click()
    wait(browser, lambda d: d.find_element(By.ID, "relevant").get_attribute("hidden") is None)


def test_infinite_scroll_and_hierarchical_menu(shop, browser):
    open_page(browser, shop)
    shown = lambda d: len(d.find_elements(By.CSS_SELECTOR, "#hits .hit"))
    wait(browser, lambda d: shown(d) >= 20)
    # The page may already have fetched the next page (its sentinel is near the first screen); scrolling fetches more.
    before = shown(browser)
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    wait(browser, lambda d: shown(d) > before)
    browser.execute_script("window.scrollTo(0, 0)")
    audio = "//section[@class='hierarchy']//button[span[text()='Audio']]"
    wait(browser, lambda d: d.find_elements(By.XPATH, audio))
    act(browser, lambda d: d.find_element(By.XPATH, audio).click())
    wait(browser, lambda d: hit_count(d) == 20)
    wait(browser, lambda d: d.find_elements(By.XPATH, "//section[@class='hierarchy']//button[span[text()='Speakers']]"))


def test_narrow_screen_and_screenshot(shop, browser):
    open_page(browser, shop)
    type_query(browser, "river")
    rivers = expected_hits(shop, "river")
    wait(browser, lambda d: hit_count(d) == rivers)
    act(browser, lambda d: d.find_element(By.XPATH, "//section[@data-attribute='brand']//label[span[text()='Acme']]").click())
    wait(browser, lambda d: hit_count(d) == expected_hits(shop, "river", filters="brand:Acme") < rivers)
    directory = os.path.join(ROOT, ".build", "screenshots")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "search-page.png")
    assert browser.save_screenshot(path)
    assert os.path.getsize(path) > 10_000
    if os.environ.get("QUARRY_UPDATE_SCREENSHOT") == "1":
        shutil.copyfile(path, os.path.join(ROOT, "protocol", "images", "search-page.png"))
    browser.set_window_size(320, 800)
    wait(browser, lambda d: d.execute_script("return document.documentElement.scrollWidth") <= 320,
         message="horizontal scroll at 320 px")
