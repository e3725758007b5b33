using System.Buffers.Text;
using System.Text;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Runner.Http.Lean;

/// <summary>
/// Reads one HTTP/1.x response from the bytes a connection receives, in whatever pieces they arrive, and keeps
/// only what a measurement needs: the final status (1xx interim answers are passed over), when the headers
/// ended, the body's length after chunked framing is taken off, whether the connection may be reused, and the
/// caching headers. It allocates nothing per response unless a caching header is present, and never reads
/// past the response's end. A violation of the protocol throws <see cref="InvalidResponseException"/>.
/// </summary>
public sealed class ResponseParser
{
    /// <summary>The largest header block (status line and headers, interim answers included) it accepts, as SocketsHttpHandler's default.</summary>
    public const int MaxHeaderBytes = 64 * 1024;

    enum Part { StatusLine, Header, Body, ChunkSize, ChunkData, ChunkEnd, Trailer, Done }

    readonly CachingEvidence? evidence;
    Part part;
    bool headRequest, http10, chunked, closeDelimited, sawClose, sawKeepAlive, interim;
    long contentLength, remaining;
    int headerBytes;

    /// <param name="evidence">Where the caching headers of each response are counted; null to skip them.</param>
    public ResponseParser(CachingEvidence? evidence = null) => this.evidence = evidence;

    /// <summary>The final status code; 0 until its status line has been read.</summary>
    public int StatusCode { get; private set; }

    /// <summary>The final response's headers have all been read.</summary>
    public bool HeadersDone => part >= Part.Body;

    /// <summary>The whole response has been read; for a body delimited by the connection's close, only after <see cref="EndOfStream"/>.</summary>
    public bool Complete => part == Part.Done;

    /// <summary>Body bytes read, without chunked framing.</summary>
    public long BodyBytes { get; private set; }

    /// <summary>Whether any byte of a response has arrived: a connection closed before it had none is one the server let go idle.</summary>
    public bool Started { get; private set; }

    /// <summary>The connection may carry the next request once this response is complete.</summary>
    public bool KeepAlive => !closeDelimited && !sawClose && (!http10 || sawKeepAlive);

    /// <summary>Starts reading the answer to a new request (a HEAD request's answer has no body, whatever it announces).</summary>
    public void Reset(bool headRequest)
    {
        this.headRequest = headRequest;
        part = Part.StatusLine;
        StatusCode = 0;
        BodyBytes = 0;
        headerBytes = 0;
        Started = false;
        ResetHeaders();
    }

    void ResetHeaders()
    {
        http10 = chunked = closeDelimited = sawClose = sawKeepAlive = interim = false;
        contentLength = -1;
    }

    /// <summary>
    /// Reads what it can of <paramref name="data"/> and returns how many bytes it took. Fewer than given means it
    /// needs the rest of a line: the caller keeps the bytes not taken and offers them again with more. It stops at
    /// the response's end, so bytes after it are never taken.
    /// </summary>
    public int Feed(ReadOnlySpan<byte> data)
    {
        if (data.Length > 0) Started = true;
        var taken = 0;
        while (part != Part.Done && taken < data.Length)
        {
            var rest = data[taken..];
            if (part is Part.Body or Part.ChunkData)
            {
                var n = closeDelimited ? rest.Length : (int)Math.Min(remaining, rest.Length);
                BodyBytes += n;
                remaining -= n;
                taken += n;
                if (!closeDelimited && remaining == 0) part = part == Part.Body ? Part.Done : Part.ChunkEnd;
                continue;
            }
            var lineEnd = rest.IndexOf((byte)'\n');
            if (lineEnd < 0)
            {
                if (part is Part.StatusLine or Part.Header or Part.Trailer && headerBytes + rest.Length > MaxHeaderBytes)
                    throw new InvalidResponseException($"the response's headers exceed {MaxHeaderBytes / 1024} KB");
                if (rest.Length > 1024 && part is Part.ChunkSize or Part.ChunkEnd)
                    throw new InvalidResponseException("a chunk's size line is too long");
                break;
            }
            var line = rest[..lineEnd];
            if (line.Length > 0 && line[^1] == (byte)'\r') line = line[..^1];
            taken += lineEnd + 1;
            if (part is Part.StatusLine or Part.Header or Part.Trailer)
            {
                headerBytes += lineEnd + 1;
                if (headerBytes > MaxHeaderBytes) throw new InvalidResponseException($"the response's headers exceed {MaxHeaderBytes / 1024} KB");
            }
            Line(line);
        }
        return taken;
    }

    /// <summary>The connection closed: the end of a body delimited by the close, or an answer cut short.</summary>
    public void EndOfStream()
    {
        if (part == Part.Body && closeDelimited) part = Part.Done;
        else if (part != Part.Done) throw new ResponseEndedException(Started);
    }

    void Line(ReadOnlySpan<byte> line)
    {
        switch (part)
        {
            case Part.StatusLine: StatusLine(line); break;
            case Part.Header: if (line.IsEmpty) HeadersEnded(); else Header(line); break;
            case Part.ChunkSize: ChunkSize(line); break;
            case Part.ChunkEnd:
                if (!line.IsEmpty) throw new InvalidResponseException("a chunk's data is not followed by a line end");
                part = Part.ChunkSize;
                break;
            case Part.Trailer: if (line.IsEmpty) part = Part.Done; break;
        }
    }

    void StatusLine(ReadOnlySpan<byte> line)
    {
        // HTTP/1.x SP 3DIGIT [SP reason]
        if (line.Length < 12 || !line.StartsWith("HTTP/1."u8) || line[8] != (byte)' ' || (line.Length > 12 && line[12] != (byte)' ')
            || !Utf8Parser.TryParse(line.Slice(9, 3), out int status, out var used) || used != 3 || status < 100)
            throw new InvalidResponseException("the status line is not HTTP/1.x with a three-digit status");
        if (line[7] is not ((byte)'0' or (byte)'1')) throw new InvalidResponseException("the response is not HTTP/1.0 or HTTP/1.1");
        if (status == 101) throw new InvalidResponseException("the server switched protocols, which was not asked for");
        http10 = line[7] == (byte)'0';
        interim = status < 200;
        StatusCode = status;
        part = Part.Header;
    }

    void Header(ReadOnlySpan<byte> line)
    {
        var colon = line.IndexOf((byte)':');
        if (colon <= 0 || line[0] is (byte)' ' or (byte)'\t' || line[colon - 1] is (byte)' ' or (byte)'\t')
            throw new InvalidResponseException("a header line is not 'name: value'");
        var name = line[..colon];
        var value = line[(colon + 1)..].Trim(" \t"u8);
        if (interim) return;
        if (name.Length == 14 && Ascii.EqualsIgnoreCase(name, "Content-Length"u8))
        {
            if (!Utf8Parser.TryParse(value, out long length, out var used) || used != value.Length || length < 0
                || (contentLength >= 0 && contentLength != length))
                throw new InvalidResponseException("the Content-Length is not one non-negative number");
            contentLength = length;
        }
        else if (name.Length == 17 && Ascii.EqualsIgnoreCase(name, "Transfer-Encoding"u8))
        {
            // The last coding frames the body: chunked, or anything else read until the close.
            if (EndsWithToken(value, "chunked"u8)) chunked = true;
            else closeDelimited = true;
        }
        else if (name.Length == 10 && Ascii.EqualsIgnoreCase(name, "Connection"u8))
        {
            sawClose |= HasToken(value, "close"u8);
            sawKeepAlive |= HasToken(value, "keep-alive"u8);
        }
        else if (evidence is not null) Evidence(name, value);
    }

    void Evidence(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        string? header = null;
        foreach (var known in CachingEvidence.HeaderNames)
            if (name.Length == known.Length && Ascii.EqualsIgnoreCase(name, known))
            {
                header = known;
                break;
            }
        if (header is null) return;
        // Decoded on the stack: the evidence makes a string only for a value it has not counted yet.
        Span<char> chars = value.Length <= 256 ? stackalloc char[value.Length] : new char[value.Length];
        Encoding.Latin1.GetChars(value, chars);
        evidence!.Add(header, chars);
    }

    void HeadersEnded()
    {
        if (interim)
        {
            ResetHeaders();
            part = Part.StatusLine;
            return;
        }
        if (headRequest || StatusCode is 204 or 304)
        {
            closeDelimited = false;
            part = Part.Done;
        }
        else if (chunked && !closeDelimited) part = Part.ChunkSize;
        else if (!closeDelimited && contentLength >= 0)
        {
            remaining = contentLength;
            part = remaining == 0 ? Part.Done : Part.Body;
        }
        else
        {
            closeDelimited = true; // no length: the body is whatever comes until the server closes
            part = Part.Body;
        }
    }

    void ChunkSize(ReadOnlySpan<byte> line)
    {
        var semicolon = line.IndexOf((byte)';');
        var digits = (semicolon < 0 ? line : line[..semicolon]).Trim(" \t"u8);
        if (digits.IsEmpty || digits.Length > 15 || !Utf8Parser.TryParse(digits, out long size, out var used, 'x') || used != digits.Length)
            throw new InvalidResponseException("a chunk's size is not a hexadecimal number");
        if (size == 0) part = Part.Trailer;
        else
        {
            remaining = size;
            part = Part.ChunkData;
        }
    }

    static bool EndsWithToken(ReadOnlySpan<byte> value, ReadOnlySpan<byte> token)
    {
        var comma = value.LastIndexOf((byte)',');
        var last = (comma < 0 ? value : value[(comma + 1)..]).Trim(" \t"u8);
        return Ascii.EqualsIgnoreCase(last, token);
    }

    static bool HasToken(ReadOnlySpan<byte> value, ReadOnlySpan<byte> token)
    {
        foreach (var range in value.Split((byte)','))
            if (Ascii.EqualsIgnoreCase(value[range].Trim(" \t"u8), token)) return true;
        return false;
    }
}

/// <summary>The response broke HTTP/1.x framing: a protocol violation, recorded as <see cref="ErrorKind.Other"/>.</summary>
public sealed class InvalidResponseException(string message) : Exception($"Invalid HTTP response: {message}.");

/// <summary>The connection closed before the response was complete: recorded as <see cref="ErrorKind.ConnectionReset"/>.</summary>
public sealed class ResponseEndedException(bool started)
    : IOException(started ? "The connection closed before the response was complete." : "The connection closed before any response arrived.")
{
    /// <summary>Whether any byte of the response had arrived.</summary>
    public bool Started { get; } = started;
}
