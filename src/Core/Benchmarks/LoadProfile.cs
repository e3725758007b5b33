namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// An open run's schedule of arrivals: the rate r(t) is piecewise linear (a constant rate is one flat piece),
/// and operation k is due when the arrivals so far, A(t) = ∫₀ᵗ r, reach k (k = 0, 1, 2 …), for as long as the
/// profile lasts. At a constant 200 /s for 6 s that is operations 0 … 1,199, due at k / 200 s. Pure: the
/// runner's pacer asks it when each operation is due; tests ask it what a run should have done.
/// </summary>
public sealed class LoadProfile
{
    /// <summary>A piece: from <see cref="StartNs"/> for <see cref="LengthNs"/>, rate r0 → r1, with <see cref="Before"/> arrivals before it.</summary>
    sealed record Piece(long StartNs, long LengthNs, double R0, double R1, double Before)
    {
        public double Arrivals => (R0 + R1) / 2 * LengthNs / 1e9;
    }

    readonly List<Piece> pieces = [];

    /// <param name="operations">The count when it is given (requests at a rate), not left to the rounding of A(T).</param>
    LoadProfile(IEnumerable<(double Seconds, double R0, double R1)> parts, long? operations = null)
    {
        long start = 0;
        double before = 0;
        foreach (var (seconds, r0, r1) in parts)
        {
            var length = (long)Math.Round(seconds * 1e9);
            if (length <= 0) continue;
            var piece = new Piece(start, length, r0, r1, before);
            pieces.Add(piece);
            start += length;
            before += piece.Arrivals;
        }
        DurationNs = start;
        // k = 0 … ⌈A(T)⌉ − 1 are due before the end.
        Operations = pieces.Count == 0 ? 0 : operations ?? (long)Math.Ceiling(before - 1e-9);
    }

    /// <summary>How long the profile lasts.</summary>
    public long DurationNs { get; }

    /// <summary>How many operations are due before it ends.</summary>
    public long Operations { get; }

    /// <summary>The profile of open-model parameters; null for the closed model.</summary>
    public static LoadProfile? Of(ILoadParameters p)
    {
        if (p.Model != LoadModel.Open || p.Rate is not { } rate) return null;
        if (p.Stages is { Count: > 0 } stages)
        {
            var parts = new List<(double, double, double)>();
            var previous = rate;
            foreach (var stage in stages)
            {
                parts.Add((stage.DurationSeconds, previous, stage.Rate));
                previous = stage.Rate;
            }
            return new LoadProfile(parts);
        }
        if (rate <= 0) return new LoadProfile([]);
        if (p.DurationSeconds is { } d) return new LoadProfile([(d, rate, rate)]);
        var operations = (long)(p.Requests ?? 0) * p.OperationsPerRequest;
        return new LoadProfile([(operations / rate, rate, rate)], operations);
    }

    /// <summary>The schedule in words ("200 /s for 6 s, at most 8 in flight"; "0 → 500 /s over 4 s, then 500 /s for 2 s, …"); null for the closed model.</summary>
    public static string? Describe(ILoadParameters p)
    {
        if (p.Model != LoadModel.Open || p.Rate is not { } rate) return null;
        return Rates(p, rate) + $", at most {p.Concurrency:N0} in flight";
    }

    static string Rates(ILoadParameters p, double rate)
    {
        static string R(double r) => r.ToString("0.###", System.Globalization.CultureInfo.InvariantCulture);
        if (p.Stages is not { Count: > 0 } stages)
            return p.DurationSeconds is { } d ? $"{R(rate)} /s for {d} s" : $"{R(rate)} /s for {(long)(p.Requests ?? 0) * p.OperationsPerRequest:N0} operations";
        var parts = new List<string>();
        var previous = rate;
        foreach (var stage in stages)
        {
            parts.Add(stage.DurationSeconds == 0 ? $"step to {R(stage.Rate)} /s"
                : stage.Rate == previous ? $"{R(stage.Rate)} /s for {R(stage.DurationSeconds)} s"
                : $"{R(previous)} → {R(stage.Rate)} /s over {R(stage.DurationSeconds)} s");
            previous = stage.Rate;
        }
        return string.Join(", then ", parts);
    }

    /// <summary>When operation <paramref name="k"/> is due, in ns from the load's start; null past the end.</summary>
    public long? DueNs(long k)
    {
        if (k < 0 || k >= Operations) return null;
        foreach (var piece in pieces)
        {
            if (k >= piece.Before + piece.Arrivals && piece != pieces[^1]) continue;
            var m = k - piece.Before; // arrivals into this piece
            var length = piece.LengthNs / 1e9;
            var slope = (piece.R1 - piece.R0) / length; // r(x) = R0 + slope·x
            // A(x) = R0·x + slope·x²/2 = m; the stable root of the quadratic (also for a ramp down, and slope 0).
            var root = Math.Sqrt(Math.Max(0, piece.R0 * piece.R0 + 2 * slope * m));
            var x = m <= 0 ? 0 : 2 * m / (piece.R0 + root);
            return piece.StartNs + (long)Math.Round(Math.Min(x, length) * 1e9);
        }
        return null;
    }

    /// <summary>The rate (operations per second) at an offset, for charts of the target.</summary>
    public double RateAt(long offsetNs)
    {
        foreach (var piece in pieces)
            if (offsetNs < piece.StartNs + piece.LengthNs)
                return piece.R0 + (piece.R1 - piece.R0) * (offsetNs - piece.StartNs) / piece.LengthNs;
        return pieces.Count == 0 ? 0 : pieces[^1].R1;
    }
}
