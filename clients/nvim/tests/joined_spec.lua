-- The picker on sessions and indices it did not set up (Tests/EndToEnd/test_clients_nvim.py
-- prepares them): a session `quarry fzf` created without facets, and timestamp facets.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/helpers.lua")
local quarry = H.setup()

local function open(index, session)
  vim.cmd("Quarry " .. index .. " " .. session)
  local picker = require("quarry.picker").current
  H.truthy(picker, "a picker opened")
  H.wait(function() return picker.session and picker.session.results and picker.lines end, "the first results")
  return picker
end

local function panel(picker)
  return vim.api.nvim_buf_get_lines(picker.facets_buf, 0, -1, false)
end

local function searchers_of(name)
  local got = quarry.client():request_sync("getState", { session = name }, 10000)
  return got.state.searchers
end

return {
  { "joining a session quarry fzf created: the facet panel says why it is empty, and <C-f> adds the facets", function()
    local picker = open("people", "from-fzf")
    local fzf_searcher = picker.session.searcher
    H.eq({}, searchers_of("from-fzf")[1].facets, "fzf's hits searcher has no facets")
    H.eq(4, #picker.lines, "fzf's searcher's hits")
    local text = table.concat(panel(picker), "\n")
    H.truthy(text:find("This session has no facets", 1, true), "an explanation: " .. text)
    H.truthy(text:find("<C-f> adds the ones the index declares: tags", 1, true), "the offer: " .. text)
    vim.api.nvim_set_current_win(picker.prompt_win)
    H.press("<C-f>")
    H.wait(function() return vim.tbl_contains(panel(picker), "[ ] actor (2)") end,
      "the facet lists: " .. vim.inspect(panel(picker)))
    H.eq(fzf_searcher, picker.session.searcher, "still showing fzf's hits")
    local searchers = searchers_of("from-fzf")
    H.eq(2, #searchers, "one searcher added")
    H.eq({}, searchers[1].facets, "fzf's searcher left as it was")
    H.eq({ "tags" }, searchers[2].facets, "the added one carries the declared facets")
    local line
    for number, entry in pairs(picker.facet_entries) do
      if entry.value == "lawyer" then line = number end
    end
    picker:focus_facets()
    vim.api.nvim_win_set_cursor(picker.facets_win, { line, 0 })
    H.press("<Space>")
    H.wait(function() return picker.lines and #picker.lines == 1 end, "the refinement applied to fzf's hits")
    H.eq({ "Amal Clooney" }, vim.api.nvim_buf_get_lines(picker.results_buf, 0, -1, false))
    H.truthy(vim.tbl_contains(panel(picker), "[x] lawyer (1)"), "checked: " .. vim.inspect(panel(picker)))
    picker:close()
  end },
  { "a picker joining later finds the added facets and still shows fzf's hits", function()
    local picker = open("people", "from-fzf")
    H.eq(searchers_of("from-fzf")[1].searcher, picker.session.searcher, "fzf's searcher, not the facets-only one")
    H.wait(function() return vim.tbl_contains(panel(picker), "[x] lawyer (1)") end, "the facet lists")
    picker:close()
  end },
  { "timestamp facets are shown as dates: by their name and values, or marked in the setup", function()
    quarry.setup({ date_facets = { "recorded" } })
    local picker = open("talks", "nvim-dates")
    quarry.config.date_facets = {}
    local lines = panel(picker)
    H.eq({ "date", "[ ] 2016-11-14 (2)", "[ ] 2006-02-25 (1)",
           "recorded", "[ ] 2001-09-09 (3)",
           "duration", "[ ] 600 (2)", "[ ] 1479124800 (1)" }, lines)
    picker:focus_facets()
    vim.api.nvim_win_set_cursor(picker.facets_win, { 3, 0 })
    H.press("<Space>")
    H.wait(function() return picker.lines and #picker.lines == 1 end, "the date refinement applied")
    H.eq({ "Talk one" }, vim.api.nvim_buf_get_lines(picker.results_buf, 0, -1, false))
    picker:close()
  end },
}
