"""A latency proxy for the object-store benchmark (benchmarks/pyiceberg/run --object-store).

Listens on 127.0.0.1 only and forwards HTTP/1.1 to an S3-compatible server on 127.0.0.1 (moto), holding
every request back for a fixed delay before forwarding it: a server on loopback answers in well under a
millisecond, where real object storage takes 10-50 ms to its first byte, and a client that makes many
small requests pays for each. Only the Python standard library.

    python latency_proxy.py --upstream-port 5000 --port-file proxy.port [--port 0] [--delay-ms 20]

Requests to /__latency-proxy/ are the proxy's own (a bucket name cannot start with an underscore), are
never delayed and never forwarded:

    GET /__latency-proxy/stats           {"delay_ms": 20, "requests": {"GET": 12, ...}, "bytes_up": ...,
                                         "bytes_down": ..., "dropped": connections a client dropped}
    PUT /__latency-proxy/delay?ms=N      sets the delay (0 allowed); answers the stats

Each client connection gets its own upstream connection, opened on its first request and opened again
when the server closes it. A request that says "Expect: 100-continue" is answered "100 Continue" by the
proxy itself (the client then sends its body) and forwarded whole without that header.
"""

import argparse
import asyncio
import json
import os
import sys
import urllib.parse

CONTROL = b"/__latency-proxy/"
CHUNK = 1 << 18

state = {"delay_ms": 20.0, "requests": {}, "bytes_up": 0, "bytes_down": 0, "dropped": 0}


def parse_head(head):
    """The start line's words and the headers (lower-case names) of a request or response head."""
    lines = head.split(b"\r\n")
    words = lines[0].split(b" ", 2)
    headers = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
    return words, headers


def without_header(head, name):
    lines = head.split(b"\r\n")
    kept = [lines[0]] + [line for line in lines[1:] if line.partition(b":")[0].strip().lower() != name]
    return b"\r\n".join(kept)


async def read_head(reader):
    """A head up to and with its blank line, or None when the peer closed between messages."""
    try:
        return await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as end:
        if end.partial:
            raise
        return None


async def copy_exactly(reader, writer, length, counter):
    while length > 0:
        data = await reader.read(min(length, CHUNK))
        if not data:
            raise ConnectionError("the peer closed in the middle of a body")
        writer.write(data)
        state[counter] += len(data)
        length -= len(data)
        await writer.drain()


async def copy_chunked(reader, writer, counter):
    while True:
        line = await reader.readuntil(b"\r\n")
        writer.write(line)
        size = int(line.split(b";", 1)[0].strip(), 16)
        if size == 0:
            while True:  # trailers, up to the blank line
                trailer = await reader.readuntil(b"\r\n")
                writer.write(trailer)
                if trailer == b"\r\n":
                    break
            await writer.drain()
            return
        await copy_exactly(reader, writer, size, counter)
        writer.write(await reader.readexactly(2))


async def copy_to_end(reader, writer, counter):
    while True:
        data = await reader.read(CHUNK)
        if not data:
            return
        writer.write(data)
        state[counter] += len(data)
        await writer.drain()


async def copy_body(headers, reader, writer, counter):
    """Copies a request body; every request here is framed by its length or by chunks."""
    if b"chunked" in headers.get(b"transfer-encoding", b"").lower():
        await copy_chunked(reader, writer, counter)
    elif b"content-length" in headers:
        await copy_exactly(reader, writer, int(headers[b"content-length"]), counter)


def stats():
    return {"delay_ms": state["delay_ms"], "requests": dict(state["requests"]),
            "bytes_up": state["bytes_up"], "bytes_down": state["bytes_down"], "dropped": state["dropped"]}


async def control(target, method, writer):
    url = urllib.parse.urlsplit(target.decode())
    status = b"200 OK"
    if url.path == "/__latency-proxy/delay" and method == b"PUT":
        ms = urllib.parse.parse_qs(url.query).get("ms", [""])[0]
        try:
            if float(ms) < 0:
                raise ValueError(ms)
            state["delay_ms"] = float(ms)
        except ValueError:
            status = b"400 Bad Request"
    elif url.path != "/__latency-proxy/stats":
        status = b"404 Not Found"
    body = json.dumps(stats()).encode()
    writer.write(b"HTTP/1.1 " + status + b"\r\nContent-Type: application/json\r\nContent-Length: "
                 + str(len(body)).encode() + b"\r\n\r\n" + body)
    await writer.drain()


async def relay(client_reader, client_writer, upstream_port):
    upstream = None
    try:
        while True:
            head = await read_head(client_reader)
            if head is None:
                return
            (method, target, *_), headers = parse_head(head)
            if target.startswith(CONTROL):
                await copy_body(headers, client_reader, _Discard(), "bytes_up")
                await control(target, method, client_writer)
                continue
            name = method.decode(errors="replace")
            state["requests"][name] = state["requests"].get(name, 0) + 1
            if headers.get(b"expect", b"").lower() == b"100-continue":
                client_writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
                await client_writer.drain()
                head = without_header(head, b"expect")
            if state["delay_ms"] > 0:
                await asyncio.sleep(state["delay_ms"] / 1000.0)
            if upstream is None:
                upstream = await asyncio.open_connection("127.0.0.1", upstream_port, limit=1 << 20)
            up_reader, up_writer = upstream
            up_writer.write(head)
            await copy_body(headers, client_reader, up_writer, "bytes_up")
            await up_writer.drain()
            while True:  # informational answers first; the proxy already sent the client its 100
                response = await read_head(up_reader)
                if response is None:
                    raise ConnectionError("the server closed before it answered")
                (_, status, *_), response_headers = parse_head(response)
                if not status.startswith(b"1"):
                    break
            client_writer.write(response)
            keep = response_headers.get(b"connection", b"").lower() != b"close"
            if method == b"HEAD" or status in (b"204", b"304"):
                pass
            elif b"chunked" in response_headers.get(b"transfer-encoding", b"").lower():
                await copy_chunked(up_reader, client_writer, "bytes_down")
            elif b"content-length" in response_headers:
                await copy_exactly(up_reader, client_writer, int(response_headers[b"content-length"]), "bytes_down")
            else:  # framed by the end of the connection: the client's ends with it
                await copy_to_end(up_reader, client_writer, "bytes_down")
                return
            await client_writer.drain()
            if not keep:
                up_writer.close()
                upstream = None
            if headers.get(b"connection", b"").lower() == b"close":
                return
    except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        # Clients drop a connection in the middle of a body they no longer need (a stream closed before
        # its end is aborted, not read to the end): counted, not an error.
        state["dropped"] += 1
    finally:
        if upstream is not None:
            upstream[1].close()
        client_writer.close()


class _Discard:
    """A writer that drops what it is given: the body of a control request."""

    def write(self, data):
        pass

    async def drain(self):
        pass


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upstream-port", type=int, required=True)
    parser.add_argument("--port", type=int, default=0, help="0: any free port")
    parser.add_argument("--port-file", required=True, help="where the port is written once listening")
    parser.add_argument("--delay-ms", type=float, default=20.0)
    args = parser.parse_args()
    if args.delay_ms < 0:
        parser.error("--delay-ms must be 0 or more")
    state["delay_ms"] = args.delay_ms
    server = await asyncio.start_server(lambda r, w: relay(r, w, args.upstream_port), "127.0.0.1", args.port,
                                        limit=1 << 20)
    port = server.sockets[0].getsockname()[1]
    with open(args.port_file + ".tmp", "w") as out:
        out.write(f"{port}\n")
    os.replace(args.port_file + ".tmp", args.port_file)
    print(f"latency proxy: 127.0.0.1:{port} -> 127.0.0.1:{args.upstream_port}, {args.delay_ms:g} ms per request",
          file=sys.stderr)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
