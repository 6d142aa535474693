// JSON-RPC 2.0 over one WebSocket (protocol/websocket.md). The key travels in a subprotocol, the one
// way a browser can send it on a WebSocket; it is never put in a URL the server sees.

export class RpcClient {
  constructor(url, key) {
    this.url = url;
    this.key = key;
    this.nextId = 1;
    this.pending = new Map();
    this.handlers = new Map();
    this.onclose = () => {};
  }

  connect() {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url, ["quarry.jsonrpc", "quarry.key." + this.key]);
      this.socket = socket;
      socket.onopen = () => resolve();
      socket.onerror = () => reject(new Error("cannot connect to " + this.url));
      socket.onclose = (event) => {
        for (const { reject: fail } of this.pending.values()) fail(new Error("connection closed"));
        this.pending.clear();
        this.onclose(event);
      };
      socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    });
  }

  receive(message) {
    if (Array.isArray(message)) return message.forEach((m) => this.receive(m));
    if (message.method) {
      const handler = this.handlers.get(message.method);
      if (handler) handler(message.params);
      return;
    }
    const waiter = this.pending.get(message.id);
    if (!waiter) return;
    this.pending.delete(message.id);
    if (message.error) {
      const error = new Error(message.error.message);
      error.code = message.error.code;
      waiter.reject(error);
    } else {
      waiter.resolve(message.result);
    }
  }

  request(method, params) {
    const id = this.nextId++;
    const message = { jsonrpc: "2.0", id, method };
    if (params !== undefined) message.params = params;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify(message));
    });
  }

  notify(method, params) {
    this.socket.send(JSON.stringify({ jsonrpc: "2.0", method, params }));
  }

  on(method, handler) {
    this.handlers.set(method, handler);
  }
}
