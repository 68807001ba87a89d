/** One face found in a picture: its box, confidence and 468 mesh landmarks, all in the picture's pixels. */
export interface FaceGeometry {
  box: { x: number; y: number; width: number; height: number };
  score: number;
  /** x0, y0, x1, y1, ... for the 468 FaceMesh landmarks; empty when the mesh model gave none. */
  mesh: Float32Array;
}

export const MESH_POINTS = 468;
