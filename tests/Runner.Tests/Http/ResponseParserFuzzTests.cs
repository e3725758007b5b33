using BenchDashboard.Runner.Http.Lean;
using Xunit.Sdk;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>
/// The lean engine's parser on fuzzed answers (<see cref="FuzzedResponses"/>): whatever the bytes and however they
/// are cut, it reads an answer the same way it reads it whole, never takes a byte past the answer's end, and fails
/// only with its own two exceptions. The seed is random per run, or FUZZ_SEED's, and printed on failure.
/// </summary>
public sealed class ResponseParserFuzzTests
{
    [Fact]
    public void AnyAnswerCutAnyWayReadsAsItDoesWholeAndFailsOnlyAsAViolationOrAnEnd()
    {
        var seed = int.TryParse(Environment.GetEnvironmentVariable("FUZZ_SEED"), out var fixedSeed) ? fixedSeed : Random.Shared.Next();
        for (var i = 0; i < 5_000; i++)
        {
            var random = new Random(HashCode.Combine(seed, i));
            var (answer, intact) = FuzzedResponses.Answer(random);
            try
            {
                // Only an answer that ends before the close can be followed by another (the rest is all body).
                var followed = intact is { DelimitedByClose: false };
                var whole = Read(answer, [0, answer.Length], followed);
                var cuts = FuzzedResponses.Cuts(random, answer.Length);
                Assert.Equal(whole, Read(answer, cuts, followed));
                Assert.Equal(whole, Read(answer, [.. Enumerable.Range(0, answer.Length + 1)], followed));
                if (intact is not null)
                    Assert.Equal($"complete: status {intact.Status}, {intact.BodyBytes} bytes, took {answer.Length}", whole);
            }
            catch (Exception ex) // an assertion, or any exception but the parser's own two: a crash of the engine
            {
                throw new XunitException($"FUZZ_SEED={seed}, answer {i} ({(intact is null ? "mutated" : "intact")}): {ex.GetType().Name}: {ex.Message}\n{Convert.ToBase64String(answer)}");
            }
        }
    }

    /// <summary>
    /// Feeds the answer cut at <paramref name="cuts"/> as a connection does (keeping what the parser left for the next
    /// receive), then the connection's end; when <paramref name="followed"/>, with the start of a next answer after it
    /// that must never be taken.
    /// </summary>
    static string Read(byte[] answer, List<int> cuts, bool followed)
    {
        var parser = new ResponseParser();
        parser.Reset(headRequest: false);
        var pending = new List<byte>();
        var taken = 0;
        try
        {
            for (var c = 0; c + 1 < cuts.Count && !parser.Complete; c++)
            {
                pending.AddRange(answer[cuts[c]..cuts[c + 1]]);
                // A whole answer is followed at once by the start of another, as on a kept connection.
                var offered = followed && cuts[c + 1] == answer.Length ? [.. pending, .. "HTTP/1.1 500 Next\r\n"u8] : pending.ToArray();
                var took = parser.Feed(offered);
                Assert.InRange(took, 0, offered.Length);
                Assert.True(took <= pending.Count, $"took {took} of {pending.Count} bytes of the answer: a byte past its end");
                pending.RemoveRange(0, took);
                taken += took;
            }
            if (!parser.Complete) parser.EndOfStream();
            Assert.True(parser.Complete);
            Assert.Equal(0, parser.Feed("HTTP/1.1 200 OK\r\n"u8));
            return $"complete: status {parser.StatusCode}, {parser.BodyBytes} bytes, took {taken}";
        }
        catch (InvalidResponseException)
        {
            return "invalid";
        }
        catch (ResponseEndedException ended)
        {
            return $"ended (started {ended.Started}, headers {parser.HeadersDone})";
        }
    }
}
