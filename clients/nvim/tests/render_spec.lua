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
  { "status: hits, index and relevant sort", function()
    H.eq("3 hits · people · all", render.status({ nbHits = 3, relevantSort = { priority = "hitsCount" } }, "people"))
  end },
  { "status: one hit is singular, none is no hits", function()
    H.eq("1 hit · people", render.status({ nbHits = 1 }, "people"))
    H.eq("no hits · people", render.status({ nbHits = 0 }, "people"))
  end },
}
