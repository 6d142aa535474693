-- JSON-RPC to the Quarry daemon over a child's pipes (`quarry connect`), with
-- LSP Content-Length framing. Callbacks run on the main loop (vim.schedule),
-- so they may call any API.
local uv = vim.uv or vim.loop -- vim.uv from 0.10; 0.7 has vim.loop

local M = {}

local Client = {}
Client.__index = Client

local function encode(message)
  local body = vim.json.encode(message)
  return string.format("Content-Length: %d\r\n\r\n%s", #body, body)
end

-- Starts `cmd` (a list) and returns a client, or nil and an error message.
function M.start(cmd, opts)
  opts = opts or {}
  local stdin, stdout, stderr = uv.new_pipe(false), uv.new_pipe(false), uv.new_pipe(false)
  local client = setmetatable({
    next_id = 1, pending = {}, listeners = {}, chunks = {}, size = 0, stderr_tail = {}, closed = false,
    on_exit = opts.on_exit, stdin = stdin, stdout = stdout, stderr = stderr,
  }, Client)
  local args = {}
  for i = 2, #cmd do args[#args + 1] = cmd[i] end
  local handle, pid
  handle, pid = uv.spawn(cmd[1], { args = args, stdio = { stdin, stdout, stderr } }, function(code, signal)
    client:_lost(string.format("%s exited (code %d, signal %d)", cmd[1], code, signal))
    handle:close() -- reaped: libuv waited for it
  end)
  if not handle then
    for _, pipe in ipairs({ stdin, stdout, stderr }) do pipe:close() end
    return nil, string.format("cannot run %s: %s", cmd[1], tostring(pid))
  end
  client.handle, client.pid = handle, pid
  stdout:read_start(function(err, data)
    if err or not data then return client:_lost(err or "the daemon closed the connection") end
    client:_feed(data)
  end)
  stderr:read_start(function(_, data)
    if not data then return end
    table.insert(client.stderr_tail, data)
    if #client.stderr_tail > 20 then table.remove(client.stderr_tail, 1) end
  end)
  return client
end

-- Splits the stream into messages (runs in luv's fast context: no API calls
-- here). Chunks of a large frame are only joined once the frame is complete.
function Client:_feed(data)
  table.insert(self.chunks, data)
  self.size = self.size + #data
  if self.need and self.size < self.need then return end
  local buffer = table.concat(self.chunks)
  self.need = nil
  while true do
    local header_end = buffer:find("\r\n\r\n", 1, true)
    if not header_end then break end
    local length = tonumber(buffer:sub(1, header_end - 1):match("[Cc]ontent%-[Ll]ength:%s*(%d+)"))
    if not length then return self:_lost("the daemon sent a frame without Content-Length") end
    local body_start = header_end + 4
    if #buffer < body_start + length - 1 then
      self.need = body_start + length - 1
      break
    end
    local body = buffer:sub(body_start, body_start + length - 1)
    buffer = buffer:sub(body_start + length)
    local ok, message = pcall(vim.json.decode, body)
    if ok then vim.schedule(function() self:_dispatch(message) end) end
  end
  self.chunks, self.size = { buffer }, #buffer
end

function Client:_dispatch(message)
  if message.method then
    for _, listener in ipairs(self.listeners) do listener(message.method, message.params) end
    return
  end
  local callback = self.pending[message.id]
  if not callback then return end
  self.pending[message.id] = nil
  if message.error and message.error ~= vim.NIL then
    callback(message.error, nil)
  else
    callback(nil, message.result)
  end
end

function Client:_lost(reason)
  if self.lost then return end
  self.lost = reason
  vim.schedule(function()
    local pending = self.pending
    self.pending = {}
    for _, callback in pairs(pending) do callback({ code = -32099, message = reason }, nil) end
    if self.on_exit then self.on_exit(reason) end
  end)
end

function Client:_write(message)
  if self.lost or self.closed then return false end
  self.stdin:write(encode(message))
  return true
end

-- Sends a request; `callback(err, result)` runs on the main loop. Returns the id.
function Client:request(method, params, callback)
  local id = self.next_id
  self.next_id = id + 1
  self.pending[id] = callback or function() end
  if not self:_write({ jsonrpc = "2.0", id = id, method = method, params = params or vim.empty_dict() }) then
    local pending = self.pending[id]
    self.pending[id] = nil
    vim.schedule(function() pending({ code = -32099, message = self.lost or "closed" }, nil) end)
  end
  return id
end

-- Waits (processing events) for a reply: returns result, or nil and the error.
function Client:request_sync(method, params, timeout)
  local done, err, result = false, nil, nil
  self:request(method, params, function(e, r) done, err, result = true, e, r end)
  if not vim.wait(timeout or 10000, function() return done end, 5) then
    return nil, { code = -32099, message = method .. " timed out" }
  end
  return result, err
end

function Client:notify(method, params)
  self:_write({ jsonrpc = "2.0", method = method, params = params or vim.empty_dict() })
end

function Client:on_notification(listener)
  table.insert(self.listeners, listener)
  return function()
    for i, l in ipairs(self.listeners) do
      if l == listener then table.remove(self.listeners, i) return end
    end
  end
end

-- `shutdown`, `exit`, then closes the pipes; `quarry connect` ends with them.
function Client:close()
  if self.closed then return end
  if not self.lost then
    self:request_sync("shutdown", nil, 2000)
    self:notify("exit")
  end
  self.closed = true
  for _, pipe in ipairs({ self.stdin, self.stdout, self.stderr }) do
    if not pipe:is_closing() then pipe:close() end
  end
end

M.Client = Client
return M
