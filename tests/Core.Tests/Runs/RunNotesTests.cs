using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Tests.Runs;

public class RunNotesTests
{
    [Fact]
    public void AnAgentsNotesJoinTheRunsNamedAfterItAndTheirCountsAddUp()
    {
        var agent = new RunNotes();
        for (var i = 0; i < 3; i++) agent.AddError(ErrorKind.ConnectionRefused, "connection refused");
        agent.Add("cleaned up");
        agent.AddWarning("loopback only");

        var run = new RunNotes();
        run.AddError(ErrorKind.ConnectionRefused, "connection refused"); // the dashboard's own: not the agent's message
        run.AddFrom(agent, "Agent alpha");
        run.AddFrom(agent, "Agent alpha"); // a second shard (or turn) of the same agent's notes adds to the same line
        run.AddFrom(agent, "Agent beta");

        Assert.Equal(
            [new ErrorMessage(ErrorKind.ConnectionRefused, "connection refused", 1), new ErrorMessage(ErrorKind.ConnectionRefused, "Agent alpha: connection refused", 6),
                new ErrorMessage(ErrorKind.ConnectionRefused, "Agent beta: connection refused", 3)],
            run.ErrorMessages);
        // A note or warning says the same each turn: once per agent, not once per turn.
        Assert.Equal(["Agent alpha: cleaned up", "Agent beta: cleaned up"], run.Notes);
        Assert.Equal(["Agent alpha: loopback only", "Agent beta: loopback only"], run.Warnings);
    }
}
