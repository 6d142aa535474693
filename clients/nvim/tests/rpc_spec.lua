-- The framing, fed by hand: split headers, several frames per chunk, a frame over many chunks.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/helpers.lua")
local rpc = require("quarry.rpc")

local function client()
  local received = {}
  local fake = setmetatable({ chunks = {}, size = 0, pending = {}, listeners = {} }, rpc.Client)
  fake:on_notification(function(method, params) table.insert(received, { method, params }) end)
  return fake, received
end

local function frame(message)
  local body = vim.json.encode(message)
  return "Content-Length: " .. #body .. "\r\n\r\n" .. body
end

return {
  { "frames split anywhere are reassembled, several per chunk are all read", function()
    local fake, received = client()
    local stream = frame({ method = "a", params = { n = 1 } }) .. frame({ method = "b", params = { text = "é\r\n\r\n" } })
    for i = 1, #stream, 7 do fake:_feed(stream:sub(i, i + 6)) end
    fake:_feed(frame({ method = "c" }) .. frame({ method = "d" }))
    H.wait(function() return #received == 4 end, "four messages")
    H.eq({ "a", "b", "c", "d" }, vim.tbl_map(function(m) return m[1] end, received))
    H.eq("é\r\n\r\n", received[2][2].text)
  end },
  { "a large frame over many chunks arrives whole", function()
    local fake, received = client()
    local big = string.rep("x", 300000)
    local stream = frame({ method = "big", params = { text = big } })
    for i = 1, #stream, 65536 do fake:_feed(stream:sub(i, i + 65535)) end
    H.wait(function() return #received == 1 end, "the big message")
    H.eq(#big, #received[1][2].text)
  end },
  { "replies reach their callbacks, errors as the error object", function()
    local fake = client()
    local got = {}
    fake.pending[1] = function(err, result) got.one = { err, result } end
    fake.pending[2] = function(err, result) got.two = { err, result } end
    fake:_feed(frame({ jsonrpc = "2.0", id = 2, error = { code = -32602, message = "bad" } }) ..
      frame({ jsonrpc = "2.0", id = 1, result = { ok = true } }))
    H.wait(function() return got.one and got.two end, "both replies")
    H.eq({ nil, { ok = true } }, got.one)
    H.eq(-32602, got.two[1].code)
  end },
}
