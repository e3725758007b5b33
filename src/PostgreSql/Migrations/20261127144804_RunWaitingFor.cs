using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchDashboard.PostgreSql.Migrations
{
    /// <inheritdoc />
    public partial class RunWaitingFor : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<string>(
                name: "WaitingFor",
                table: "Runs",
                type: "text",
                nullable: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "WaitingFor",
                table: "Runs");
        }
    }
}
