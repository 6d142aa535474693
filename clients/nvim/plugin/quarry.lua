-- Registers the commands only; everything else loads on first use.
if vim.g.loaded_quarry then return end
vim.g.loaded_quarry = true

vim.api.nvim_create_user_command("Quarry", function(command)
  require("quarry").open(command.fargs[1], command.fargs[2])
end, {
  nargs = "+",
  desc = "Search a Quarry index live: :Quarry {index} [session]",
  complete = function(lead, line)
    if #vim.split(line, "%s+") > 2 then return {} end
    return require("quarry").complete_indices(lead)
  end,
})
