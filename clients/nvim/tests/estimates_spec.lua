-- Estimates, then exact counts (protocol/methods/resultsUpdated.md), in the picker's status, on
-- the daemon Tests/EndToEnd/test_clients_nvim.py prepared (`things`: 1,200 records whose titles
-- start with one of 80 words beginning with "c"). On a Typesense cluster (QUARRY_BACKEND=typesense)
-- the one-letter query is first answered with an estimate, shown as "~N hits", which the exact
-- "1,200 hits" replaces; on the embedded engine no estimate is ever shown.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/helpers.lua")
local quarry = H.setup()
local render = require("quarry.render")

return {
  { "a one-letter query shows its estimate, then the exact count", function()
    local shown = {}
    local status = render.status
    render.status = function(result, index)
      local text = status(result, index)
      table.insert(shown, text)
      return text
    end
    vim.cmd("Quarry things nvim-estimates")
    local picker = require("quarry.picker").current
    H.truthy(picker, "a picker opened")
    H.wait(function() return picker.session and picker.session.results end, "the first results")
    shown = {}
    picker.session:set_query("c")
    H.wait(function() return shown[#shown] == "1,200 hits · things" end, "the exact count: " .. vim.inspect(shown))
    render.status = status
    local estimates = vim.tbl_filter(function(text) return text:sub(1, 1) == "~" end, shown)
    if os.getenv("QUARRY_BACKEND") == "typesense" then
      H.truthy(#estimates > 0, "an estimate was shown first: " .. vim.inspect(shown))
      H.truthy(estimates[1]:match("^~[%d,]+ hits · things$"), "shown as one: " .. estimates[1])
      H.truthy(vim.fn.index(shown, estimates[1]) < vim.fn.index(shown, "1,200 hits · things"), "then replaced")
    else
      H.eq({}, estimates, "the embedded engine is exact")
    end
    picker:close()
  end },
}
