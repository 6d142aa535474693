-- The pure rendering: lines and highlight columns from hits (no daemon).
local render = require("quarry.render")
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/helpers.lua")

return {
  { "a match range becomes the same byte columns, after multibyte text", function()
    local line, spans = render.hit_line({ objectID = "4", name = "Émile Zola", _matchRanges = { name = { { 7, 11 } } } }, { "name" })
    H.eq("Émile Zola", line)
    H.eq({ { 7, 11, "QuarryMatch" } }, spans)
    H.eq("Zola", line:sub(spans[1][1] + 1, spans[1][2]))
  end },
  { "UTF-16 ranges are converted to byte columns, surrogate pairs included", function()
    local _, spans = render.hit_line({ name = "Émile Zola", _matchRanges = { name = { { 6, 10 } } } }, { "name" }, "utf-16")
    H.eq({ { 7, 11, "QuarryMatch" } }, spans)
    local line, emoji = render.hit_line({ name = "a😀 bcd", _matchRanges = { name = { { 4, 7 } } } }, { "name" }, "utf-16")
    H.eq("bcd", line:sub(emoji[1][1] + 1, emoji[1][2]))
  end },
  { "ranges past the text are dropped, not drawn", function()
    local _, spans = render.hit_line({ name = "abc", _matchRanges = { name = { { 1, 9 }, { 0, 1 } } } }, { "name" }, "utf-8")
    H.eq({ { 0, 1, "QuarryMatch" } }, spans)
  end },
  { "newlines are flattened without moving later columns", function()
    local line, spans = render.hit_line({ title = "a\nbc", _matchRanges = { title = { { 2, 4 } } } }, {})
    H.eq("a bc", line)
    H.eq({ { 2, 4, "QuarryMatch" } }, spans)
  end },
  { "a match in another attribute is shown as an excerpt with shifted spans", function()
    local bio = string.rep("x", 30) .. " ocean " .. string.rep("y", 60)
    local line, spans = render.hit_line({ name = "Ana", bio = bio, _matchRanges = { bio = { { 31, 36 } } } }, { "name" })
    H.truthy(line:find("^Ana  · bio: …"), "label and ellipsis")
    H.eq("ocean", line:sub(spans[2][1] + 1, spans[2][2]))
    H.eq("QuarryDim", spans[1][3])
  end },
  { "the display attribute: configured, then searchable, then common names, then alphabetical", function()
    H.eq("b", render.display_attribute({ a = "1", b = "2" }, { "b" }))
    H.eq("title", render.display_attribute({ a = "1", title = "2" }, {}))
    H.eq("a", render.display_attribute({ objectID = "9", z = "1", a = "2" }, {}))
  end },
  { "results: one line per hit and 0-based line numbers in highlights", function()
    local lines, highlights = render.results({
      { name = "George Clooney", _matchRanges = { name = { { 7, 11 } } } },
      { name = "Amal Clooney", _matchRanges = { name = { { 5, 9 } } } },
    }, { "name" })
    H.eq({ "George Clooney", "Amal Clooney" }, lines)
    H.eq({ { 0, 7, 11, "QuarryMatch" }, { 1, 5, 9, "QuarryMatch" } }, highlights)
  end },
  { "facets: titles, checkboxes and which line toggles what", function()
    local lines, highlights, entries = render.facets({
      tags = { { value = "actor", count = 2, isRefined = true }, { value = "lawyer", count = 1, isRefined = false } },
    }, { "tags" })
    H.eq({ "tags", "[x] actor (2)", "[ ] lawyer (1)" }, lines)
    H.eq({ attribute = "tags", value = "lawyer", refined = false }, entries[3])
    H.eq({ 0, 0, 4, "QuarryFacetTitle" }, highlights[1])
  end },
  { "facets: timestamps under a time-like name are shown as dates, and still toggle the raw value", function()
    -- Noon UTC, so the date is the same in any time zone within 11 hours of it.
    local lines, _, entries = render.facets({
      date = { { value = "1479124800", count = 2 }, { value = "1140868800", count = 1, isRefined = true } },
      duration_range = { { value = "1479124800", count = 1 } },
      published_at = { { value = "1479124800000", count = 1 } },
    }, { "date", "duration_range", "published_at" })
    H.eq({ "date", "[ ] 2016-11-14 (2)", "[x] 2006-02-25 (1)", "duration_range", "[ ] 1479124800 (1)",
           "published_at", "[ ] 2016-11-14 (1)" }, lines)
    H.eq({ attribute = "date", value = "1479124800", refined = false }, entries[2])
  end },
  { "facets: a time-like name with values outside the epoch range stays numbers", function()
    local lines = render.facets({ date = { { value = "1479124800", count = 1 }, { value = "2016", count = 1 } },
                                  releaseDate = { { value = 1000036800, count = 1 } } }, { "date", "releaseDate" })
    H.eq({ "date", "[ ] 1479124800 (1)", "[ ] 2016 (1)", "releaseDate", "[ ] 2001-09-09 (1)" }, lines)
  end },
  { "facets: the setup marks a facet as dates, or keeps a time-like one as numbers", function()
    local facets = { recorded = { { value = "1000036800", count = 1 } }, date = { { value = "1000036800", count = 1 } } }
    local lines = render.facets(facets, { "recorded", "date" }, { recorded = true, date = false })
    H.eq({ "recorded", "[ ] 2001-09-09 (1)", "date", "[ ] 1000036800 (1)" }, lines)
  end },
  { "status: hits, index and relevant sort", function()
    H.eq("3 hits · people · all", render.status({ nbHits = 3, relevantSort = { priority = "hitsCount" } }, "people"))
  end },
  { "status: an estimate shows as one, thousands are grouped", function()
    H.eq("~1,200 hits · people", render.status({ nbHits = 1200, exhaustive = { nbHits = false } }, "people"))
    H.eq("~40 hits · people", render.status({ nbHits = 40, exhaustiveNbHits = false }, "people"))
    H.eq("1,216 hits · people", render.status({ nbHits = 1216, exhaustive = { nbHits = true } }, "people"))
    H.eq("1,000,000 hits · people", render.status({ nbHits = 1000000 }, "people"))
  end },
  { "status: one hit is singular, none is no hits", function()
    H.eq("1 hit · people", render.status({ nbHits = 1 }, "people"))
    H.eq("no hits · people", render.status({ nbHits = 0 }, "people"))
  end },
}
