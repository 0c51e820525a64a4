import type { MetadataRoute } from "next";
import { appManifest } from "@/lib/brand/manifest";

// GET /manifest.webmanifest – what makes the web UI installable as an app
export default function manifest(): MetadataRoute.Manifest {
  return appManifest();
}
