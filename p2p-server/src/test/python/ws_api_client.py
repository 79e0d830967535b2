#!/usr/bin/env python3
"""A WebSocket API consumer in the shape of the public WebSocket API examples (market_price.py): connect with the
tr_json2 sub-protocol, log in with a Login request carrying ApplicationId and Position, request an item by name
(no service: the server's default), answer pings with pongs, and print every message received as one JSON line.

Usage: ws_api_client.py HOST:PORT ITEM [UPDATES] -- exits 0 after UPDATES updates of ITEM (default 1), 1 on a
timeout (20 s) or a closed connection.
"""
import json
import sys
import time

import websocket


def main():
    address, item = sys.argv[1], sys.argv[2]
    wanted = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    ws = websocket.create_connection("ws://" + address + "/WebSocket", subprotocols=["tr_json2"], timeout=20)
    ws.send(json.dumps({"ID": 1, "Domain": "Login",
                        "Key": {"Name": "python", "Elements": {"ApplicationId": "256", "Position": "127.0.0.1/net"}}}))
    updates = 0
    deadline = time.time() + 20
    while time.time() < deadline:
        frame = ws.recv()
        if not frame:
            return 1
        for message in json.loads(frame):
            print(json.dumps(message), flush=True)
            if message.get("Type") == "Ping":
                ws.send(json.dumps({"Type": "Pong"}))
            elif message.get("Type") == "Refresh" and message.get("Domain") == "Login":
                ws.send(json.dumps({"ID": 2, "Key": {"Name": item}}))
            elif message.get("Type") == "Update" and message.get("ID") == 2:
                updates += 1
                if updates >= wanted:
                    ws.close()
                    return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
