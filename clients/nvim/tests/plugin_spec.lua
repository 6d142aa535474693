-- What loads at startup (only the command), and that the help file is valid.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/helpers.lua")
local root = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h:h")

return {
  { "plugin/ registers :Quarry and loads nothing else", function()
    H.eq(2, vim.fn.exists(":Quarry"), ":Quarry is a command")
    H.eq(nil, package.loaded["quarry.rpc"], "rpc not loaded before use")
    H.eq(nil, package.loaded["quarry.picker"], "picker not loaded before use")
  end },
  { "doc/quarry.txt has valid, unique help tags", function()
    local copy = vim.fn.tempname()
    vim.fn.mkdir(copy, "p")
    vim.fn.writefile(vim.fn.readfile(root .. "/doc/quarry.txt"), copy .. "/quarry.txt")
    vim.cmd("helptags " .. vim.fn.fnameescape(copy))
    local tags = table.concat(vim.fn.readfile(copy .. "/tags"), "\n")
    for _, tag in ipairs({ ":Quarry", "quarry-keys", "quarry-health", "quarry.open()" }) do
      H.truthy(tags:find(tag, 1, true), "tag " .. tag)
    end
  end },
  { "an unreachable daemon is reported, not raised", function()
    local quarry = require("quarry")
    quarry.setup({ cmd = { "/nonexistent/quarry", "connect" } })
    local messages = {}
    local notify = vim.notify
    vim.notify = function(message) table.insert(messages, message) end
    local picker = quarry.open("people")
    vim.notify = notify
    H.eq(nil, picker)
    H.truthy(messages[1] and messages[1]:find("checkhealth quarry", 1, true), "points at :checkhealth")
  end },
}
