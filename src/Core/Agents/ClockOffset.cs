namespace BenchDashboard.Core.Agents;

/// <summary>
/// An agent's clock against the dashboard's, as NTP estimates it: for an exchange sent at agent time t0,
/// stamped by the dashboard at t1 and back at agent time t2, the round trip is t2 − t0 and the offset
/// (dashboard − agent) is t1 − (t0 + t2) / 2, off by at most half the round trip when the two legs differ.
/// Of several exchanges the one with the shortest round trip is kept: it bounds the error tightest.
/// </summary>
public sealed record ClockOffset(double OffsetMs, double RoundTripMs)
{
    /// <summary>The estimate from exchanges (t0, t1, t2) in microseconds; null for none.</summary>
    public static ClockOffset? Best(IEnumerable<(long AgentSentUs, long DashboardUs, long AgentReceivedUs)> exchanges)
    {
        ClockOffset? best = null;
        foreach (var (t0, t1, t2) in exchanges)
        {
            if (t2 < t0) continue; // the agent's clock stepped back mid-exchange: no estimate from it
            var roundTrip = (t2 - t0) / 1000.0;
            if (best is not null && roundTrip >= best.RoundTripMs) continue;
            best = new ClockOffset((t1 - (t0 + t2) / 2.0) / 1000.0, roundTrip);
        }
        return best;
    }

    /// <summary>The largest error of <see cref="OffsetMs"/>: half the round trip.</summary>
    public double ErrorBoundMs => RoundTripMs / 2;
}
