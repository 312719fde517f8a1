"""An OpenLineage receiver for the loopback cluster test: takes POSTs on 127.0.0.1, appends each body as
one line to a file, answers 200. Writes the port it listens on to a file once it listens.

    python lineage_receiver.py EVENTS_FILE PORT_FILE
"""
import http.server
import sys
import threading

events_path, port_path = sys.argv[1], sys.argv[2]
lock = threading.Lock()


class Receiver(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with lock, open(events_path, "ab") as events:
            events.write(body.replace(b"\n", b" ") + b"\n")
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
with open(port_path, "w") as port:
    port.write(str(server.server_address[1]))
server.serve_forever()
