export default function HomePage() {
  return <main>DSA</main>;
}
