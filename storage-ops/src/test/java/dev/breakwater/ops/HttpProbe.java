package dev.breakwater.ops;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Raw HTTP/1.1 over a socket, so tests control exactly which bytes the server gets. */
final class HttpProbe {

    /** A parsed response. */
    record Reply(int status, String head, String body) {
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    private HttpProbe() {
    }

    static Reply get(InetSocketAddress a, String path) throws IOException {
        return send(a, "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    }

    static Reply send(InetSocketAddress a, String request) throws IOException {
        return send(a, request.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Sends {@code request} and reads until the server closes the connection. */
    static Reply send(InetSocketAddress a, byte[] request) throws IOException {
        try (Socket s = new Socket(a.getAddress(), a.getPort())) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(request);
            out.flush();
            return parse(readAll(s.getInputStream()));
        }
    }

    static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        try {
            for (int n; (n = in.read(chunk)) >= 0; ) {
                buf.write(chunk, 0, n);
            }
        } catch (java.net.SocketException reset) {
            // The server may reset after answering a request it refused to read in full.
        }
        return buf.toByteArray();
    }

    static Reply parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.UTF_8);
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.1 ") || end < 0) {
            throw new AssertionError("not an HTTP response: '" + text + "'");
        }
        int status = Integer.parseInt(text.substring(9, 12));
        return new Reply(status, text.substring(0, end), text.substring(end + 4));
    }
}
